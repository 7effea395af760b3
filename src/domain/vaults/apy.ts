/** The APY windows (docs/products.md#apy): the field and its length in days. */
export const APY_WINDOWS = [
  { field: 'apy7d', days: 7 },
  { field: 'apy30d', days: 30 },
] as const;

const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;

/**
 * The annual percentage yield between two observations of a vault's share price (assets per whole share, in the
 * asset's base units), compounded: (now / then) ^ (365 days / elapsed) - 1, as a fraction (0.05 is 5 %), rounded
 * to 6 decimals. Null when it cannot be computed (no elapsed time, a price of zero).
 */
export function annualisedYield(then: { assetsPerShare: bigint; at: Date }, now: { assetsPerShare: bigint; at: Date }): number | null {
  const elapsedMs = now.at.getTime() - then.at.getTime();
  if (elapsedMs <= 0 || then.assetsPerShare <= 0n || now.assetsPerShare < 0n) return null;
  // Twelve decimal digits of the ratio survive into the float; share prices are far coarser than that.
  const SCALE = 10n ** 12n;
  const ratio = Number((now.assetsPerShare * SCALE) / then.assetsPerShare) / Number(SCALE);
  const apy = Math.pow(ratio, YEAR_MS / elapsedMs) - 1;
  if (!Number.isFinite(apy)) return null;
  return Math.round(apy * 1e6) / 1e6;
}

/**
 * Whether a snapshot can start a window of `days`: it is at least that old, and not more than twice (an older one
 * would describe another period).
 */
export function startsWindow(snapshotAt: Date, now: Date, days: number): boolean {
  const age = now.getTime() - snapshotAt.getTime();
  return age >= days * DAY_MS && age <= 2 * days * DAY_MS;
}

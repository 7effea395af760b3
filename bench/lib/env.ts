/** A bench setting from the environment: a positive integer, or `fallback` when unset; anything else stops the run. */
export function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a positive integer (got "${raw}")`);
  return Number(raw);
}

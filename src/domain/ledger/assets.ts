import { nativeSymbol } from '../tokens/token-registry.js';

/**
 * An asset entries are in, as CAIP-19 names it (docs/ledger.md#assets): `eip155:<chainId>/slip44:60` for a chain's
 * native coin, `eip155:<chainId>/erc20:<address>` for a token (lower case), `iso4217:<currency>` for fiat.
 */
export interface AssetRef {
  code: string;
  chainId: number | null;
  /** ERC-20 tokens: lower case. */
  address: string | null;
  symbol: string;
  decimals: number;
}

export function nativeAsset(chainId: number): AssetRef {
  return { code: `eip155:${chainId}/slip44:60`, chainId, address: null, symbol: nativeSymbol(chainId), decimals: 18 };
}

export function tokenAsset(chainId: number, token: { address: string; symbol: string; decimals: number }): AssetRef {
  const address = token.address.toLowerCase();
  return { code: `eip155:${chainId}/erc20:${address}`, chainId, address, symbol: token.symbol, decimals: token.decimals };
}

/** The currencies deposits and withdrawals are in, with two minor units each. */
export function fiatAsset(currency: 'USD' | 'EUR'): AssetRef {
  return { code: `iso4217:${currency}`, chainId: null, address: null, symbol: currency, decimals: 2 };
}

/** A decimal string (`100.5`) in minor units of `decimals` (10050): exact, never through a float. */
export function toMinorUnits(amount: string, decimals: number): bigint {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(amount);
  if (!m) throw new Error(`not a decimal amount: ${amount}`);
  const fraction = m[3] ?? '';
  if (fraction.length > decimals && /[1-9]/.test(fraction.slice(decimals))) throw new Error(`${amount} has more than ${decimals} decimals`);
  const units = BigInt(m[2]! + fraction.slice(0, decimals).padEnd(decimals, '0'));
  return m[1] ? -units : units;
}

/** Base units as a signed decimal string in the asset's units (`-0.5`), without trailing zeros. */
export function formatSigned(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

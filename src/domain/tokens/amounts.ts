import { formatUnits, parseUnits } from 'viem';
import { invalidFields } from '../errors.js';

/**
 * A decimal amount in whole units (the schema admits `^[0-9]+(\.[0-9]+)?$`) as base units of a token with
 * `decimals`: no more fraction digits than the token has, and greater than 0. 400 naming `pointer` otherwise.
 */
export function toBaseUnits(amount: string, decimals: number, pointer: string): bigint {
  const fraction = amount.split('.')[1] ?? '';
  if (fraction.length > decimals) {
    throw invalidFields([{ pointer, code: 'too_many_decimals', detail: `has at most ${decimals} decimals for this token`, in: 'body' }]);
  }
  // 78 digits: anything longer cannot be a uint256 anyway.
  if (amount.replace('.', '').length > 78) throw invalidFields([{ pointer, code: 'out_of_range', detail: 'is too large', in: 'body' }]);
  const units = parseUnits(amount, decimals);
  if (units === 0n) throw invalidFields([{ pointer, code: 'invalid_value', detail: 'must be greater than 0', in: 'body' }]);
  if (units >= 2n ** 256n) throw invalidFields([{ pointer, code: 'out_of_range', detail: 'is too large', in: 'body' }]);
  return units;
}

/** An amount as the API shows it (docs/tokens.md): in the asset's units, and the same in base units. */
export interface TokenAmount {
  amount: string;
  amountRaw: string;
}

export function tokenAmount(raw: bigint, decimals: number): TokenAmount {
  return { amount: formatUnits(raw, decimals), amountRaw: raw.toString() };
}

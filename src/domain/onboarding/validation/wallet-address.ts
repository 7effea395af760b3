import { getAddress } from 'viem/utils';
import type { FieldError } from '../../errors.js';
import { fieldError, isAbsent } from './fields.js';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The reason a wallet address is unacceptable, or null. All-lower and all-upper hex carry no checksum
 * and are accepted; mixed case is an EIP-55 checksum and must be right, because a wrong one usually
 * means a mistyped address and funds sent there are lost. (viem's isAddress treats all-upper hex as a
 * failed checksum, hence the explicit case test.) The prefix must be a lower-case "0x".
 */
function walletAddressProblem(address: string): 'invalid_address' | 'invalid_checksum' | null {
  if (!HEX_ADDRESS.test(address)) return 'invalid_address';
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return null;
  return getAddress(address.toLowerCase()) === address ? null : 'invalid_checksum';
}

/** An EVM address: `0x` and 40 hex digits (`invalid_address`), mixed case a valid EIP-55 checksum (`invalid_checksum`). */
export function validateWalletAddress(address: unknown, pointer: string): FieldError[] {
  if (isAbsent(address)) return [fieldError(pointer, 'required', 'is required')];
  if (typeof address !== 'string') return [fieldError(pointer, 'invalid_type', 'must be a string')];
  const problem = walletAddressProblem(address);
  if (problem === 'invalid_address') return [fieldError(pointer, problem, 'must be an EVM address: 0x followed by 40 hex digits')];
  if (problem === 'invalid_checksum') return [fieldError(pointer, problem, 'has mixed case that is not a valid EIP-55 checksum')];
  return [];
}

/**
 * The EIP-55 checksummed form, the one to store and compare. Throws for anything validateWalletAddress
 * rejects, so a bad checksum is never silently "repaired" into some other address.
 */
export function normalizeWalletAddress(address: string): string {
  if (typeof address !== 'string' || walletAddressProblem(address) !== null) throw new Error('not a valid wallet address');
  return getAddress(address.toLowerCase());
}

import type { Hex, TransactionSerializable } from 'viem';
import { sealedCustodyKeys, type CustodyKeys, type NewWalletKey, type WalletKey } from '../chain/custody-keys.js';
import { SignatureMismatchError } from '../chain/token-signature.js';
import { CustodyUnavailableError, TokenObjectMissingError } from '../crypto/pkcs11/errors.js';
import type { MutationContext } from './context.js';
import { ApiError } from './errors.js';
import { sanctionedAddressProblem } from './screening/address-hits.js';
import { firstListedRecipient } from './screening/value-recipients.js';

/** How long a client waits before retrying after the token failed: a restarted HSM or a re-plugged token. */
const RETRY_AFTER_SECONDS = '5';

export function custodyOf(ctx: Pick<MutationContext, 'custody' | 'secrets'>): CustodyKeys {
  return ctx.custody ?? sealedCustodyKeys(ctx.secrets);
}

/**
 * The wallet's signature on `tx`, or 503 custody_unavailable when the token cannot give it. Callers sign before
 * their write, or inside their database transaction, so a refusal here leaves nothing written (docs/key-management.md).
 */
export async function signForWallet(ctx: Pick<MutationContext, 'custody' | 'secrets' | 'policy'>, wallet: WalletKey, tx: TransactionSerializable): Promise<Hex> {
  // Every custody signature passes here: whatever path forgot to screen (and record) first, nothing the service signs
  // moves or grants value to a listed address (docs/screening.md#wallet-addresses).
  const listed = firstListedRecipient(ctx.policy.addressScreen, tx);
  if (listed) throw sanctionedAddressProblem(listed);
  try {
    return await custodyOf(ctx).signForWallet(wallet, tx);
  } catch (err) {
    throw custodyProblem(err, 'sign');
  }
}

/** A new wallet's key (on the token under CUSTODY_KEYS=pkcs11), or 503 custody_unavailable. */
export async function newWalletKey(ctx: Pick<MutationContext, 'custody' | 'secrets'>, walletId: string): Promise<NewWalletKey> {
  try {
    return await custodyOf(ctx).newWalletKey(walletId);
  } catch (err) {
    throw custodyProblem(err, 'create a key');
  }
}

function custodyProblem(err: unknown, what: string): unknown {
  if (!(err instanceof CustodyUnavailableError || err instanceof TokenObjectMissingError || err instanceof SignatureMismatchError)) return err;
  const problem = new ApiError('custody_unavailable', `The custody keys could not ${what}; nothing was signed or changed. Retry after Retry-After`, {
    headers: { 'retry-after': RETRY_AFTER_SECONDS },
  });
  // The reason (a CKR_ code, a label) is for the operator: it reaches the error log as the cause, not the client.
  return Object.assign(problem, { cause: err });
}

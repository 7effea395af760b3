import { createHash } from 'node:crypto';
import type { ChainRegistry } from '../../chain/chain-client.js';
import type { Treasury } from '../../chain/treasury.js';
import type { Database, Tx } from '../../db/database.js';
import { findDepositAccount, findDepositByReference, listTransactionTransitions } from '../../db/repositories/deposits.js';
import { findTransaction, type TransactionRow } from '../../db/repositories/transactions.js';
import { insertTransaction, moveTransaction } from '../../db/repositories/transaction-writes.js';
import type { TransactionStatus } from '../../db/schema/index.js';
import { requireProductEnabled } from '../products/account-products.js';
import type { ProductConfig } from '../products/catalogue.js';
import { requireChain } from '../chains.js';
import { runMutation, type MutationContext } from '../context.js';
import { newPaymentReference } from '../references.js';
import { ApiError, invalidFields, notFound, notOffered } from '../errors.js';
import { signingKeyCause, recordTransactionChange, WATCHER, type TransactionCause } from '../transactions/record-change.js';
import { newId } from '../ids.js';
import { toTransactionView, type FiatDepositInstructions, type TransactionView } from '../transactions/transaction-view.js';
import type { TokenRegistry } from '../tokens/token-registry.js';
import { requireAsset } from '../tokens/transaction-asset.js';
import type { DepositConfig, DepositCurrency } from './deposit-config.js';
import { arrivedPayoutColumns, depositPayoutColumns, toCents } from './deposit-asset.js';

/** A positive amount with at most two decimals, as a string (money is never a float). */
export const AMOUNT_PATTERN = '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,2})?$';

export interface DepositDeps {
  chains: ChainRegistry;
  config: DepositConfig;
  treasury: Treasury | undefined;
  /** The products offered (the fiat_deposits gate). */
  products: ProductConfig;
  /** The listed tokens a deposit may be paid out in (`asset`). */
  tokens: TokenRegistry;
}

export interface CreateDepositInput {
  accountId: string;
  amount: string;
  currency: DepositCurrency;
  chainId: number;
  /** A listed token's symbol on that chain; absent: the chain's native coin. */
  asset?: string;
}

export { toCents, weiFor } from './deposit-asset.js';

function positive(amount: string, pointer: string): void {
  if (toCents(amount) === 0n) {
    throw invalidFields([{ pointer, code: 'invalid_value', detail: 'must be greater than 0', in: 'body' }]);
  }
}

/**
 * create-deposit: a transaction waiting for a bank transfer, with the instructions to pay it in and a unique
 * reference; the crypto goes to the account's wallet once the funds arrive (docs/deposits.md).
 */
export async function createDeposit(ctx: MutationContext, deps: DepositDeps, input: CreateDepositInput): Promise<TransactionView> {
  positive(input.amount, '/amount');
  const integratorId = ctx.actor.integratorId;
  const found = await findDepositAccount(ctx.db.db, integratorId, input.accountId);
  if (!found) throw notFound('Account');
  const { account } = found;
  await requireProductEnabled(ctx.db.db, deps.products, account.id, 'fiat_deposits');
  requireChain(deps.chains, input.chainId, 'chainId');
  const token = requireAsset(deps.tokens, input.chainId, input.asset);
  const bank = deps.config.banks[input.currency];
  // No treasury: the deployment takes no deposits at all (503, as for mail without a transport); a currency it has no
  // bank for is the client's choice, not offered (422).
  if (!deps.treasury) throw new ApiError('deposits_unavailable', 'Deposits are not configured on this deployment (TREASURY_PRIVATE_KEY)');
  if (!bank) throw notOffered('/currency', 'currency_not_offered', `Deposits in ${input.currency} are not offered on this deployment (DEPOSIT_BANK_${input.currency} is not set)`);
  if (!account.walletAddress) throw new ApiError('account_without_wallet', 'The account has no wallet to receive the deposit (create-user accounts have none; an older entity account gets one with create-entity-wallet)');
  if (found.verificationStatus !== 'active') {
    throw new ApiError('account_not_active', `The account cannot receive deposits while its verificationStatus is ${found.verificationStatus ?? 'unknown'}`);
  }
  const payout = depositPayoutColumns(input.amount, input.currency, token, deps.config);
  // A native deposit's request is hashed as before tokens, so an Idempotency-Key replay across the upgrade still matches.
  const request = [input.accountId, input.amount, input.currency, input.chainId, ...(token ? [token.symbol] : [])];

  return runMutation(ctx, async (tx) => {
    // 60 random bits: a collision is not expected, and the unique index would refuse one (a 500, never a shared reference).
    const reference = newPaymentReference('DEP');
    const instructions: FiatDepositInstructions = { currency: input.currency, ...bank, reference };
    const id = newId();
    const row = await insertTransaction(tx, {
      id,
      integratorId,
      // Ours: a deposit is not submitted with an id of the integrator's (Idempotency-Key makes retries safe).
      transactionId: newId(),
      accountId: account.id,
      walletId: found.walletId,
      kind: 'deposit',
      chainId: input.chainId,
      status: 'waiting_for_funds',
      requestHash: createHash('sha256').update(JSON.stringify(request)).digest('hex'),
      toAddress: account.walletAddress,
      ...payout,
      depositAmount: input.amount,
      depositCurrency: input.currency,
      depositReference: reference,
      fiatDepositInstructions: instructions,
      // The bank transfer must arrive before this; the watcher fails the deposit as expired after it.
      expiresAt: new Date(ctx.now.getTime() + deps.config.expiryMs),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    if (!row) throw new Error('deposit reference collision');
    return recordTransactionChange(tx, row, null, signingKeyCause(ctx.actor, `deposit of ${input.amount} ${input.currency}${token ? ` in ${token.symbol}` : ''}`), ctx.now);
  });
}

/** A status change of a deposit with its events, in the caller's transaction; 409 when the deposit is elsewhere. */
async function moveDeposit(
  tx: Tx,
  row: TransactionRow,
  to: TransactionStatus,
  patch: Parameters<typeof moveTransaction>[3],
  cause: TransactionCause,
  at: Date,
  options: Parameters<typeof moveTransaction>[4] = {},
): Promise<TransactionView> {
  const moved = await moveTransaction(tx, row.id, row.status, { ...patch, status: to, updatedAt: at }, options);
  if (!moved) throw new ApiError('invalid_transaction_state', 'The transaction changed meanwhile (or its payout was signed); read it and try again');
  return recordTransactionChange(tx, moved, row.status, cause, at);
}

function expectDeposit(row: TransactionRow | undefined, allowed: TransactionStatus[], action: string): TransactionRow {
  if (!row || row.kind !== 'deposit') throw notFound('Deposit');
  if (!allowed.includes(row.status)) {
    throw new ApiError('invalid_transaction_state', `A deposit in ${row.status} cannot be ${action} (only in ${allowed.join(' or ')})`, { extensions: { fromStatus: row.status, action } });
  }
  return row;
}

/**
 * The bank transfer arrived: waiting_for_funds -> funds_in_transfer with the amount received (what is paid out;
 * it may differ from the amount asked). The payout follows in the background (the transaction watcher).
 */
function fundsArrived(tx: Tx, row: TransactionRow, amount: string, deps: Pick<DepositDeps, 'config'>, cause: TransactionCause, at: Date): Promise<TransactionView> {
  return moveDeposit(tx, row, 'funds_in_transfer', { receivedAmount: amount, ...arrivedPayoutColumns(row, amount, deps.config) }, { ...cause, detail: `received ${amount} ${row.depositCurrency}` }, at);
}

/** Sandbox: simulate-deposit, the integrator's own deposit by its transactionId. */
export async function simulateDeposit(ctx: MutationContext, deps: Pick<DepositDeps, 'config'>, input: { transactionId: string; amount: string }): Promise<TransactionView> {
  positive(input.amount, '/amount');
  const row = expectDeposit(await findTransaction(ctx.db.db, ctx.actor.integratorId, input.transactionId), ['waiting_for_funds'], 'funded');
  const cause: TransactionCause = { actorType: 'sandbox', ...(ctx.actor.publicKey ? { actorId: ctx.actor.publicKey } : {}) };
  return runMutation(ctx, (tx) => fundsArrived(tx, row, input.amount, deps, cause, ctx.now));
}

/** Operators (or a bank feed): funds received for a reference. */
export async function receiveDepositFunds(db: Database, deps: Pick<DepositDeps, 'config'>, input: { reference: string; amount: string }, operatorId: string, at: Date): Promise<TransactionView> {
  positive(input.amount, '/amount');
  const row = expectDeposit(await findDepositByReference(db.db, input.reference), ['waiting_for_funds'], 'funded');
  return db.db.transaction((tx) => fundsArrived(tx, row, input.amount, deps, { actorType: 'operator', actorId: operatorId }, at));
}

/** Operators: the deposit will not be paid out (no funds came, or they were returned). */
export async function cancelDeposit(db: Database, input: { reference: string; reason: string }, operatorId: string, at: Date): Promise<TransactionView> {
  const row = expectDeposit(await findDepositByReference(db.db, input.reference), ['waiting_for_funds', 'funds_in_transfer'], 'cancelled');
  // A payout already signed may be on its way to the node: only a deposit without one can be cancelled safely.
  if (row.payoutRaw) throw new ApiError('invalid_transaction_state', 'The payout is already signed and may be broadcast; wait for its outcome', { extensions: { fromStatus: row.status, action: 'cancelled' } });
  // Guarded in the update too: a payout signed after the read above makes this a 409, never a cancelled payout.
  return db.db.transaction(async (tx) => moveDeposit(tx, row, 'failed', { failureReason: 'cancelled' }, { actorType: 'operator', actorId: operatorId, detail: input.reason }, at, { unsignedPayoutOnly: true }));
}

export interface TransitionView {
  fromStatus: TransactionStatus | null;
  toStatus: TransactionStatus;
  actorType: TransactionCause['actorType'];
  actorId: string | null;
  detail: string | null;
  at: string;
}

/** Operators: a deposit by reference, with its integrator and its audit trail (who moved it, when, why). */
export async function depositByReference(db: Database, reference: string): Promise<TransactionView & { integratorId: string; history: TransitionView[] }> {
  const row = await findDepositByReference(db.db, reference);
  if (!row) throw notFound('Deposit');
  const history = (await listTransactionTransitions(db.db, row.id)).map((t) => ({
    fromStatus: t.fromStatus,
    toStatus: t.toStatus,
    actorType: t.actorType,
    actorId: t.actorId,
    detail: t.detail,
    at: t.createdAt.toISOString(),
  }));
  return { ...toTransactionView(row), integratorId: row.integratorId, history };
}

/**
 * A deposit whose bank transfer did not arrive by its expiresAt: waiting_for_funds -> failed (expired), with its
 * events. Undefined when funds arrived (or an operator cancelled it) meanwhile: that change won.
 */
export async function expireDeposit(tx: Tx, row: TransactionRow, at: Date): Promise<TransactionView | undefined> {
  const moved = await moveTransaction(tx, row.id, 'waiting_for_funds', { status: 'failed', failureReason: 'expired', updatedAt: at });
  if (!moved) return undefined;
  return recordTransactionChange(tx, moved, 'waiting_for_funds', { ...WATCHER, detail: `no funds arrived by ${row.expiresAt?.toISOString()}` }, at);
}

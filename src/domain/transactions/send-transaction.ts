import { createHash } from 'node:crypto';
import { keccak256, type Hash, type TransactionSerializable } from 'viem';
import type { ChainRegistry } from '../../chain/chain-client.js';
import { parseUnsignedTransaction, UnsignedTransactionError } from '../../chain/custody-signer.js';
import { signForWallet } from '../custody.js';
import type { Executor } from '../../db/database.js';
import { TRANSACTION_KINDS } from '../../db/schema/index.js';
import { countRoles, findMember, type MemberRow } from '../../db/repositories/members.js';
import { findSubmissionContext, findTransaction, type AccountRowWithStatus, type TransactionRow } from '../../db/repositories/transactions.js';
import { insertTransactionWrite, moveTransaction, newTransactionRow } from '../../db/repositories/transaction-writes.js';
import { canonicalJson } from '../canonical-json.js';
import { exactlyOne } from '../checked-writes.js';
import { requireChain } from '../chains.js';
import { claimCommitWrites, runMutation, type MutationContext } from '../context.js';
import { ApiError, invalidFields, notFound, type FieldError } from '../errors.js';
import { newId, UUID_PATTERN } from '../ids.js';
import { requireVerifiedMember } from '../members/verified-member.js';
import { mayAct } from '../members/roles.js';
import { requireProductChosen } from '../products/account-products.js';
import type { ProductConfig } from '../products/catalogue.js';
import type { Approve } from './approval.js';
import { approvalsOf } from './approvals-view.js';
import { propose, TransactionIdTaken } from './propose.js';
import { wouldReachQuorum } from './quorum.js';
import { preflight, sendAfterCommit, type Unsent } from './send-signed.js';
import { refuseListedRecipients } from '../screening/value-recipients.js';
import { signingKeyCause, recordTransactionChange } from './record-change.js';
import { toTransactionView, type TransactionView } from './transaction-view.js';
import { newTransferFields } from './transfer-row.js';
import type { TokenRegistry } from '../tokens/token-registry.js';
import type { Log } from '../../log.js';
import { endedPreparationProblem, expirePreparationNow, isPrepared, preparationExpired, preparationExpiredProblem, preparedUnsignedTransaction, productOfKind } from './prepared.js';
import { refuseUnpayable } from '../withdrawals/withdrawal-payee.js';
import { judgeSpending, refuseBySpendingPolicy, type SpendingDeps } from '../policies/enforce.js';
import { failCreated } from './policy-failure.js';
import { recordNewRefusal, recordRefusal } from './policy-refusal.js';

export const SIGN_TRANSACTION_ACTIVITY = 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2';
export const ETHEREUM_TRANSACTION = 'TRANSACTION_TYPE_ETHEREUM';
/** signedBody.timestampMs may be this far from the server clock, either way. */
export const SIGNED_BODY_WINDOW_MS = 5 * 60 * 1000;

export interface SignedBody {
  type: string;
  timestampMs: string;
  organizationId: string;
  parameters: { signWith: string; unsignedTransaction: string; type: string };
}

/** What both submission paths carry; each adds its approval (webAuthnStamp or approvalToken). */
export interface SendTransactionInput {
  transactionId: string;
  signedBody: SignedBody;
  /** Entity wallets: the member who proposes (docs/members.md#quorum). */
  actingUserId?: string;
}

export interface TransactionDeps {
  chains: ChainRegistry;
  /** The products offered (the custodial_wallet gate). */
  products: ProductConfig;
  /** The listed tokens: a transfer of one is shown decoded and needs the wallet's balance (docs/tokens.md#transfers). */
  tokens: TokenRegistry;
  log: Pick<Log, 'error' | 'warn'>;
  /** The spending policies' assets and tokens (docs/policies.md#enforcement): every signing path judges by them. */
  spending: SpendingDeps;
  /** Called after a committed transaction was sent, or could not be (wakes the watcher). */
  onBroadcast?: () => void;
}

/** productOfKind for every kind, as the submission read takes it. */
const PRODUCT_OF_KIND: Record<string, string> = Object.fromEntries(TRANSACTION_KINDS.map((kind) => [kind, productOfKind(kind)]));

export function requestHash(chainId: number, input: SendTransactionInput): string {
  return createHash('sha256').update(canonicalJson({ chainId, ...input })).digest('hex');
}

export function memberApprovalRequired(): ApiError {
  return new ApiError('member_approval_required', 'An entity wallet sends only with its members’ approvals (docs/members.md#quorum), and this entity has no owner yet: invite one (create-invitation)');
}

/**
 * The approval of a prepared transaction (a withdrawal, a vault call) must be for exactly what was issued: the same
 * account, chain and unsigned transaction (409 transaction_mismatch otherwise), before it expires (409
 * quote_expired, and it fails).
 */
async function checkPreparedApproval(ctx: MutationContext, row: TransactionRow, account: AccountRowWithStatus, chainId: number, unsignedTransaction: string): Promise<void> {
  const hex = (value: string) => (value.startsWith('0x') ? value : `0x${value}`).toLowerCase();
  if (account.id !== row.accountId || chainId !== row.chainId || hex(unsignedTransaction) !== hex(preparedUnsignedTransaction(row))) {
    const what = row.kind === 'withdrawal' ? 'withdrawal' : 'vault transaction';
    throw new ApiError('transaction_mismatch', `The signedBody must approve exactly the unsignedTransaction issued with this ${what}, on its chain and account`);
  }
  if (preparationExpired(row, ctx.now)) {
    await expirePreparationNow(ctx.db, row, signingKeyCause(ctx.actor), ctx.now);
    throw preparationExpiredProblem(row);
  }
}

/**
 * An earlier submission with this transactionId: the same request is answered again, another one refused (a prepared
 * transaction that failed before its approval, with the problem it failed for).
 */
async function replay(db: Executor, row: TransactionRow, hash: string): Promise<{ created: false; transaction: TransactionView }> {
  if (row.requestHash !== hash) throw (await endedPreparationProblem(db, row)) ?? new ApiError('transaction_id_reused', 'This transactionId was already used with a different request');
  return { created: false, transaction: toTransactionView(row, (await approvalsOf(db, [row])).get(row.id)) };
}

/** Who approves with this submission: the account's user, or for an entity wallet the acting member (docs/members.md#quorum). */
async function approverOf(ctx: MutationContext, account: AccountRowWithStatus, actingUserId: string | undefined): Promise<{ userId: string; member?: MemberRow }> {
  if (account.userId) {
    if (actingUserId !== undefined && actingUserId !== account.userId) {
      throw invalidFields([{ pointer: '/actingUserId', code: 'not_allowed', detail: 'actingUserId is for entity wallets; an individual account is approved by its own user', in: 'body' }]);
    }
    return { userId: account.userId };
  }
  if ((await countRoles(ctx.db.db, account.id)).owner === 0) throw memberApprovalRequired();
  if (!actingUserId) throw invalidFields([{ pointer: '/actingUserId', code: 'required', detail: 'An entity wallet’s transaction is proposed by one of its members: name them (docs/members.md#quorum)', in: 'body' }]);
  const member = await findMember(ctx.db.db, ctx.actor.integratorId, account.id, actingUserId);
  if (!member || !mayAct(member.role, { kind: 'propose_transaction' })) {
    throw new ApiError('role_not_allowed', member ? `A member with the role ${member.role} may not propose transactions` : 'actingUserId is not a member of this account');
  }
  await requireVerifiedMember(ctx.db.db, ctx.actor.integratorId, actingUserId);
  return { userId: actingUserId, member };
}

/**
 * send-transaction-passkey and send-transaction-otp (docs/transactions.md). Everything is checked before anything
 * is written, the approval last; then one statement (a new transfer) or one database transaction (a prepared one,
 * a member's proposal) records the transaction, uses the approval up, writes the event, and keeps the transaction
 * signed with the custody key; after the commit it goes to the node
 * (send-signed.ts). What the node would refuse at once (nonce, funds) is asked first and leaves nothing behind (and
 * the approval unused). From an entity wallet the submission is a member's proposal: it waits in created until the
 * quorum (docs/members.md#quorum).
 */
export async function sendTransaction(
  ctx: MutationContext,
  deps: TransactionDeps,
  chainId: number,
  input: SendTransactionInput,
  approve: Approve,
): Promise<{ created: boolean; transaction: TransactionView }> {
  const integratorId = ctx.actor.integratorId;
  const hash = requestHash(chainId, input);
  const { signedBody } = input;
  const { signWith } = signedBody.parameters;
  // One read for the transaction already under this transactionId and the signing context (whose product is the
  // earlier transaction's when it is a prepared one approved now).
  const { earlier, signing, passkey } = await findSubmissionContext(
    ctx.db.db,
    {
      integratorId,
      transactionId: input.transactionId,
      organizationId: UUID_PATTERN.test(signedBody.organizationId) ? signedBody.organizationId.toLowerCase() : null,
      signWith,
      ...(input.actingUserId ? { actingUserId: input.actingUserId } : {}),
    },
    { productOfKind: PRODUCT_OF_KIND, defaultProduct: productOfKind('transfer') },
    approve.passkey?.(signedBody),
  );
  // A prepared transaction (withdrawal, vault call) waiting for its approval is approved through this path under
  // its own transactionId. (Once a member proposed it, the same request again is answered as a replay.)
  const prepared = earlier && isPrepared(earlier) && !(earlier.proposedByUserId && earlier.requestHash === hash) ? earlier : undefined;
  if (earlier && !prepared) return replay(ctx.db.db, earlier, hash);

  const chain = requireChain(deps.chains, chainId, 'chain_id');

  const errors: FieldError[] = [];
  if (signedBody.type !== SIGN_TRANSACTION_ACTIVITY) errors.push({ pointer: '/signedBody/type', code: 'invalid_value', detail: `must be ${SIGN_TRANSACTION_ACTIVITY}`, in: 'body' });
  if (signedBody.parameters.type !== ETHEREUM_TRANSACTION) errors.push({ pointer: '/signedBody/parameters/type', code: 'invalid_value', detail: `must be ${ETHEREUM_TRANSACTION}`, in: 'body' });
  let unsigned: TransactionSerializable | undefined;
  try {
    unsigned = parseUnsignedTransaction(signedBody.parameters.unsignedTransaction);
  } catch (err) {
    if (!(err instanceof UnsignedTransactionError)) throw err;
    errors.push({ pointer: '/signedBody/parameters/unsignedTransaction', code: 'invalid_value', detail: `unsignedTransaction ${err.message}`, in: 'body' });
  }
  if (errors.length > 0 || !unsigned) throw invalidFields(errors);

  const skew = Number(signedBody.timestampMs) - ctx.now.getTime();
  if (!Number.isSafeInteger(Number(signedBody.timestampMs)) || Math.abs(skew) > SIGNED_BODY_WINDOW_MS) {
    throw new ApiError('stale_signed_body', `signedBody.timestampMs must be within ${SIGNED_BODY_WINDOW_MS / 60_000} minutes of the server time (${ctx.now.toISOString()})`);
  }

  const productId = productOfKind(prepared?.kind ?? 'transfer');
  if (!signing) throw notFound('Organization');
  const { account, wallet } = signing;
  if (account.custody === 'self_custodial') throw new ApiError('self_custodial_account', 'The account is self-custodial: its wallet is signed for by the end user, not by this service');
  if (account.custody !== 'custodial' || !account.walletAddress) throw notFound('Organization');
  if (account.walletAddress.toLowerCase() !== signWith.toLowerCase()) {
    throw new ApiError('sign_with_mismatch', 'signedBody.parameters.signWith is not the wallet of the organization named by signedBody.organizationId');
  }
  if (account.verificationStatus !== 'active') {
    throw new ApiError('account_not_active', `The account cannot transact while its verificationStatus is ${account.verificationStatus ?? 'unknown'}`);
  }
  requireProductChosen(deps.products, productId, signing.productStatus);
  if (unsigned.chainId !== chainId) throw new ApiError('chain_mismatch', `The unsigned transaction is for chain ${unsigned.chainId}, not chain_id ${chainId}`);
  if (prepared) await checkPreparedApproval(ctx, prepared, account, chainId, signedBody.parameters.unsignedTransaction);

  const approver = await approverOf(ctx, account, input.actingUserId);
  const approval = await approve(ctx, approver.userId, signedBody, passkey);
  // Nothing moves or grants value to a listed address: refused before anything is signed or used up, and recorded.
  await refuseListedRecipients(ctx.db.db, ctx.policy.addressScreen, { integratorId, accountId: account.id, chainId, activity: 'transfer', transactionRowId: prepared?.id ?? null }, unsigned, ctx.now);
  // What the node would refuse at once is refused before anything is written, when this request sends (a member's
  // proposal short of its quorum waits, and the wallet may be funded by then).
  if (!approver.member || (await wouldReachQuorum(ctx.db.db, prepared, account, approver.member))) {
    try {
      await preflight(chain, account.walletAddress, unsigned, deps.tokens);
    } catch (err) {
      // A concurrent request may have sent first (spending the nonce): answer as the guarded writes below would
      // have. The same transactionId recorded meanwhile (or the prepared one approved) is answered as it is now; the
      // same approval used meanwhile is its reuse problem.
      const now = await findTransaction(ctx.db.db, integratorId, input.transactionId);
      if (now && (!prepared || now.status !== 'created')) return replay(ctx.db.db, now, hash);
      await approval.recheck();
      throw err;
    }
  }

  if (!wallet) throw notFound('Organization');
  const newRowFields = (id: string) => newTransferFields({ id, integratorId, transactionId: input.transactionId, accountId: account.id }, wallet, unsigned, deps.tokens);
  const cause = signingKeyCause(ctx.actor, approver.member ? `proposed by member ${approver.userId} (${approval.kind})` : `approved by ${approval.kind}`);
  // Spending policies judge before anything is signed (docs/policies.md#enforcement); a refusal is recorded as the
  // transaction, failed, and answered 403. Allowed here, they judge again where it is recorded, reserving its amounts.
  const subject = { integratorId, accountId: account.id, walletAddress: account.walletAddress, unsigned, toService: prepared?.kind === 'withdrawal' };
  const refused = await judgeSpending(ctx.db.db, deps.spending, subject, ctx.now);
  if (refused) {
    const problem = await recordRefusal(ctx, { prepared, request: { requestHash: hash, signedBody }, newRow: () => newTransactionRow({ ...newRowFields(newId()), status: 'created', requestHash: hash, signedBody, updatedAt: ctx.now, createdAt: ctx.now }), cause, denial: refused, subject }).catch(async (err: unknown) => {
      // The same transactionId recorded meanwhile (a concurrent retry): answered as it is now.
      const row = err instanceof TransactionIdTaken ? await findTransaction(ctx.db.db, integratorId, input.transactionId) : undefined;
      if (!row) throw err;
      return row;
    });
    if (problem instanceof ApiError) throw problem;
    return replay(ctx.db.db, problem, hash);
  }
  // Before anything is written: a token that fails here (503 custody_unavailable) leaves nothing behind.
  const signed = await signForWallet(ctx, wallet, unsigned);
  const transactionHash: Hash = keccak256(signed);

  let unsent: Unsent | undefined;
  let result: { created: true; transaction: TransactionView } | undefined;
  let unpayable: ApiError | undefined;
  let policyDenied: ApiError | undefined;
  const approved = { authenticatorId: approval.authenticatorId, approval: approval.kind, requestHash: hash, signedBody, updatedAt: ctx.now };
  // Signed, not yet sent: the node hears of it after the commit (send-signed.ts).
  const signedFields = { transactionHash, signedRaw: signed, status: 'processing' as const };
  try {
    if (!approver.member && !prepared) {
      // A new transfer is one statement: the row, its audit row and event, the approval used up and the idempotency
      // claim committed, each guarded write required to take effect (checked-writes.ts); then its ledger posting, in
      // the same database transaction (after the spending policies' lock and reservation, when any covers the account).
      const row = newTransactionRow({ ...approved, ...signedFields, ...newRowFields(newId()), createdAt: ctx.now });
      const view = await ctx.db.db.transaction(async (tx) => {
        const denial = await judgeSpending(tx, deps.spending, subject, ctx.now, row.id);
        if (denial) {
          // Refused meanwhile (a concurrent transfer used the window up): the signature is dropped, never stored.
          policyDenied = await recordNewRefusal(ctx, tx, newTransactionRow({ ...newRowFields(row.id), status: 'created', requestHash: hash, signedBody, updatedAt: ctx.now, createdAt: ctx.now }), cause, denial, subject);
          return undefined;
        }
        return recordTransactionChange(tx, row, null, cause, ctx.now, [
          exactlyOne(insertTransactionWrite(row), () => new TransactionIdTaken()),
          ...approval.writes({ transactionRowId: row.id }),
          ...claimCommitWrites(ctx),
        ]);
      });
      if (view) {
        unsent = { rowId: row.id, chainId, signed, transactionHash };
        result = { created: true, transaction: view };
      }
    } else {
      result = await runMutation(ctx, async (tx) => {
        // A withdrawal whose bank account can no longer be paid fails here, committed, and is answered after.
        unpayable = prepared && (await refuseUnpayable(tx, prepared, signingKeyCause(ctx.actor), ctx.now));
        if (unpayable) return undefined;
        const rowId = prepared?.id ?? newId();
        if (approver.member) {
          const onRefused = (problem: ApiError) => (policyDenied = problem);
          const view = await propose(tx, { ctx, prepared, proposer: approver.member, approval, cause, fields: approved, newRow: newRowFields(rowId), onSigned: (signed) => (unsent = signed), spending: { deps: deps.spending, onRefused } });
          return { created: true, transaction: view };
        }
        // A prepared transaction moves out of created once: a concurrent approval finds it gone and sends nothing.
        policyDenied = await refuseBySpendingPolicy(tx, deps.spending, prepared!, subject, (detail) => failCreated(tx, prepared!, { ...cause, detail }, ctx.now, { requestHash: hash, signedBody }), ctx.now);
        if (policyDenied) return undefined;
        const row = await moveTransaction(tx, rowId, 'created', { ...approved, ...signedFields });
        if (!row) throw new TransactionIdTaken();
        // The approval is used up by the statement that records the change and its event.
        const view = await recordTransactionChange(tx, row, 'created', cause, ctx.now, approval.writes({ transactionRowId: rowId }));
        unsent = { rowId, chainId, signed, transactionHash };
        return { created: true, transaction: view };
      });
    }
  } catch (err) {
    if (err instanceof TransactionIdTaken) {
      const row = await findTransaction(ctx.db.db, integratorId, input.transactionId);
      if (row) return replay(ctx.db.db, row, hash);
    }
    throw err;
  }
  if (policyDenied) throw policyDenied;
  if (unpayable) throw unpayable;
  if (unsent) {
    await sendAfterCommit({ database: ctx.db, now: () => ctx.now, log: deps.log }, chain, unsent, cause, input.transactionId);
    deps.onBroadcast?.();
  }
  return result!;
}


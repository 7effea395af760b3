import { createHash } from 'node:crypto';
import type { Address } from 'viem';
import type { ChainRegistry } from '../../chain/chain-client.js';
import type { Treasury } from '../../chain/treasury.js';
import { findBankAccount } from '../../db/repositories/bank-accounts.js';
import { findDepositAccount } from '../../db/repositories/deposits.js';
import { insertTransaction } from '../../db/repositories/transaction-writes.js';
import { requireProductEnabled } from '../products/account-products.js';
import type { ProductConfig } from '../products/catalogue.js';
import { requireChain } from '../chains.js';
import { runMutation, type MutationContext } from '../context.js';
import type { DepositCurrency } from '../deposits/deposit-config.js';
import { toCents } from '../deposits/deposit-asset.js';
import { ApiError, invalidFields, notFound, notOffered } from '../errors.js';
import { newId } from '../ids.js';
import { recordTransactionChange, signingKeyCause } from '../transactions/record-change.js';
import type { Token, TokenRegistry } from '../tokens/token-registry.js';
import { requireAsset } from '../tokens/transaction-asset.js';
import { quotedCrypto, unsignedWithdrawal, withdrawalCrypto, type WithdrawalCrypto } from './withdrawal-asset.js';
import type { StoredWithdrawal, TransactionView } from '../transactions/transaction-view.js';
import type { WithdrawalConfig } from './withdrawal-config.js';

export interface WithdrawalDeps {
  chains: ChainRegistry;
  config: WithdrawalConfig;
  /** Where the crypto goes; none (production without TREASURY_PRIVATE_KEY): withdrawals are unavailable. */
  treasury: Treasury | undefined;
  /** The products offered (the fiat_withdrawals gate). */
  products: ProductConfig;
  /** The listed tokens a withdrawal may be made in (`asset`). */
  tokens: TokenRegistry;
}

export interface CreateWithdrawalInput {
  accountId: string;
  bankAccountId: string;
  chainId: number;
  amount: string;
  currency: DepositCurrency;
  /** A listed token's symbol on that chain; absent: the chain's native coin. */
  asset?: string;
}

const cents = (value: bigint) => `${value / 100n}.${String(value % 100n).padStart(2, '0')}`;

/** The fee (rounded up to the cent) and the crypto taken for `amount + fee` at the configured rate (withdrawalCrypto). */
export function quote(amount: string, currency: DepositCurrency, token: Token | undefined, config: WithdrawalConfig): { fee: string; crypto: WithdrawalCrypto } {
  const amountCents = toCents(amount);
  const feeCents = (amountCents * BigInt(config.feeBps) + 9_999n) / 10_000n;
  return { fee: cents(feeCents), crypto: withdrawalCrypto(amountCents + feeCents, currency, token, config) };
}

/**
 * create-withdrawal (docs/withdrawals.md): a quote valid for WITHDRAWAL_QUOTE_SECONDS and the unsigned transfer of
 * its crypto from the account's custody wallet to the treasury, for the end user to approve with
 * send-transaction-passkey or -otp under this transactionId. Nothing is signed or sent here.
 */
export async function createWithdrawal(ctx: MutationContext, deps: WithdrawalDeps, input: CreateWithdrawalInput): Promise<TransactionView> {
  if (toCents(input.amount) === 0n) throw invalidFields([{ pointer: '/amount', code: 'invalid_value', detail: 'must be greater than 0', in: 'body' }]);
  const integratorId = ctx.actor.integratorId;
  const found = await findDepositAccount(ctx.db.db, integratorId, input.accountId);
  if (!found) throw notFound('Account');
  const bank = await findBankAccount(ctx.db.db, integratorId, input.bankAccountId);
  // A bank account of another of the integrator's accounts is as unknown here as one that does not exist.
  if (!bank || bank.accountId !== found.account.id) throw notFound('Bank account');
  await requireProductEnabled(ctx.db.db, deps.products, found.account.id, 'fiat_withdrawals');
  const chain = requireChain(deps.chains, input.chainId, 'chainId');
  const token = requireAsset(deps.tokens, input.chainId, input.asset);
  if (bank.currency !== input.currency) {
    throw invalidFields([{ pointer: '/currency', code: 'currency_mismatch', detail: `must be the bank account's currency (${bank.currency})`, in: 'body' }]);
  }
  if (!deps.treasury) throw new ApiError('withdrawals_unavailable', 'Withdrawals are not configured on this deployment (TREASURY_PRIVATE_KEY)');
  if (!deps.config.rails.has(bank.rail)) {
    const offered = [...deps.config.rails].map((r) => r.toUpperCase()).join(', ') || 'none';
    throw notOffered('/bankAccountId', 'rail_not_offered', `Withdrawals over ${bank.rail.toUpperCase()} are not offered on this deployment (WITHDRAWAL_RAILS: ${offered})`);
  }
  const { account } = found;
  if (account.custody === 'self_custodial') throw new ApiError('self_custodial_account', 'The account is self-custodial: its end user sends crypto from their own wallet, not through a withdrawal');
  if (!account.walletAddress || !found.walletId) throw new ApiError('account_without_wallet', 'The account has no custodial wallet to withdraw from');
  if (found.verificationStatus !== 'active') throw new ApiError('account_not_active', `The account cannot withdraw while its verificationStatus is ${found.verificationStatus ?? 'unknown'}`);
  if (bank.status !== 'verified') throw new ApiError('bank_account_not_verified', `Withdrawals are paid only to a verified bank account (this one is ${bank.status})`);

  const { fee, crypto } = quote(input.amount, input.currency, token, deps.config);
  const from = account.walletAddress as Address;
  const { unsignedTransaction, nonce } = await unsignedWithdrawal(chain, from, deps.treasury.address, crypto);

  const id = newId();
  const expiresAt = new Date(ctx.now.getTime() + deps.config.quoteTtlMs);
  const withdrawal: StoredWithdrawal = {
    amount: input.amount,
    currency: input.currency,
    fee,
    ...quotedCrypto(crypto, input.chainId),
    ...(crypto.rate ? { rate: crypto.rate } : {}),
    bankAccountId: bank.id,
    last4: bank.last4,
    quoteExpiresAt: expiresAt.toISOString(),
    unsignedTransaction,
  };
  return runMutation(ctx, async (tx) => {
    const row = await insertTransaction(tx, {
      id,
      integratorId,
      // Ours, and the same as the row id: the refund of a returned withdrawal names it by this id.
      transactionId: id,
      accountId: account.id,
      walletId: found.walletId,
      kind: 'withdrawal',
      chainId: input.chainId,
      status: 'created',
      // A native withdrawal's request is hashed as before tokens (an Idempotency-Key replay across the upgrade matches).
      requestHash: createHash('sha256').update(JSON.stringify(['withdrawal', input.accountId, input.bankAccountId, input.chainId, input.amount, input.currency, ...(token ? [token.symbol] : [])])).digest('hex'),
      fromAddress: from,
      toAddress: deps.treasury!.address,
      value: crypto.value.toString(),
      ...(crypto.token ? { token: crypto.token, tokenAmount: crypto.tokenAmount!.toString() } : {}),
      nonce,
      withdrawal,
      expiresAt,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    if (!row) throw new Error('withdrawal id collision');
    return recordTransactionChange(tx, row, null, signingKeyCause(ctx.actor, `withdrawal of ${input.amount} ${input.currency}${token ? ` in ${token.symbol}` : ''} to ****${bank.last4}`), ctx.now);
  });
}

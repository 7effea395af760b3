import { createHash } from 'node:crypto';
import { formatUnits, serializeTransaction, type Address, type Hex } from 'viem';
import { allowance, encodeApprove, encodeDeposit, encodeRedeem, encodeWithdraw, maxRedeem, maxWithdraw, previewDeposit, previewRedeem, previewWithdraw, tokenBalance } from '../../chain/erc4626.js';
import { findDepositAccount } from '../../db/repositories/deposits.js';
import { insertTransaction } from '../../db/repositories/transaction-writes.js';
import type { TransactionKind } from '../../db/schema/index.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { requireProductEnabled } from '../products/account-products.js';
import type { ProductConfig } from '../products/catalogue.js';
import { recordTransactionChange, signingKeyCause } from '../transactions/record-change.js';
import type { StoredVaultCall, TransactionView, VaultCall } from '../transactions/transaction-view.js';
import { toBaseUnits } from '../tokens/amounts.js';
import { findVaultRef } from './vault-registry.js';
import { chainReadProblem, readVault, type ReadVault, type VaultDeps } from './vault-view.js';

export interface PrepareDeps extends VaultDeps {
  products: ProductConfig;
}

export interface PreparedVaultTransactions {
  accountId: string;
  vaultId: string;
  /** What the vault previews for this call, in whole units. */
  preview: { assets: string; shares: string };
  /** To approve in this order, each through send-transaction-passkey or -otp under its transactionId. */
  transactions: TransactionView[];
}

interface PlannedCall {
  call: VaultCall;
  to: Address;
  data: Hex;
  /** Fixed gas (a deposit behind its approve), or estimated from the node. */
  gas?: bigint;
}

/** The account and vault a preparation is for, checked in the order an integrator fixes them. */
async function preparationSubject(ctx: MutationContext, deps: PrepareDeps, accountId: string, vaultId: string) {
  const found = await findDepositAccount(ctx.db.db, ctx.actor.integratorId, accountId);
  if (!found) throw notFound('Account');
  const ref = await findVaultRef(ctx.db.db, deps.config, deps.chains, vaultId);
  if (!ref) throw notFound('Vault');
  await requireProductEnabled(ctx.db.db, deps.products, found.account.id, 'yield_vaults');
  const { account } = found;
  if (account.custody === 'self_custodial') throw new ApiError('self_custodial_account', 'The account is self-custodial: its end user calls the vault from their own wallet');
  if (!account.walletAddress || !found.walletId) throw new ApiError('account_without_wallet', 'The account has no custodial wallet to deposit from');
  if (found.verificationStatus !== 'active') throw new ApiError('account_not_active', `The account cannot use vaults while its verificationStatus is ${found.verificationStatus ?? 'unknown'}`);
  const vault = await readVault(deps, ref);
  return { account, walletId: found.walletId, wallet: account.walletAddress.toLowerCase() as Address, vault };
}

/** Builds the unsigned EIP-1559 transactions (consecutive nonces, the node's fees) and records them in created. */
async function recordPrepared(
  ctx: MutationContext,
  deps: PrepareDeps,
  subject: { account: { id: string }; walletId: string; wallet: Address; vault: ReadVault },
  kind: TransactionKind,
  plan: PlannedCall[],
  amounts: { assets: string; shares: string },
  requestKey: unknown[],
): Promise<TransactionView[]> {
  const { vault, wallet } = subject;
  const expiresAt = new Date(ctx.now.getTime() + deps.config.preparationTtlMs);
  const built: { call: PlannedCall; unsignedTransaction: string; nonce: number }[] = [];
  try {
    const [nonce, fees] = await Promise.all([vault.chain.pendingNonce(wallet), vault.chain.feesPerGas()]);
    for (const [i, call] of plan.entries()) {
      const gas = call.gas ?? (await vault.chain.estimateCallGas(wallet, call.to, call.data));
      const unsignedTransaction = serializeTransaction({
        chainId: vault.ref.chainId,
        type: 'eip1559',
        nonce: nonce + i,
        to: call.to,
        value: 0n,
        data: call.data,
        gas,
        ...fees,
      });
      built.push({ call, unsignedTransaction, nonce: nonce + i });
    }
  } catch (err) {
    throw chainReadProblem(err);
  }
  const requestHash = createHash('sha256').update(JSON.stringify(requestKey)).digest('hex');
  return runMutation(ctx, async (tx) => {
    const views: TransactionView[] = [];
    for (const [i, b] of built.entries()) {
      const id = newId();
      const stored: StoredVaultCall = {
        vaultId: vault.ref.vaultId,
        call: b.call.call,
        step: i + 1,
        steps: built.length,
        assets: amounts.assets,
        shares: b.call.call === 'approve' ? null : amounts.shares,
        expiresAt: expiresAt.toISOString(),
        unsignedTransaction: b.unsignedTransaction,
        assetDecimals: vault.metadata.asset.decimals,
        shareDecimals: vault.metadata.decimals,
        ledger: { vaultAddress: vault.ref.address, assetAddress: vault.metadata.asset.address, assetSymbol: vault.metadata.asset.symbol, shareSymbol: vault.metadata.symbol },
      };
      const row = await insertTransaction(tx, {
        id,
        integratorId: ctx.actor.integratorId,
        // Ours, and the same as the row id, like a withdrawal's.
        transactionId: id,
        accountId: subject.account.id,
        walletId: subject.walletId,
        kind,
        chainId: vault.ref.chainId,
        status: 'created',
        requestHash,
        fromAddress: wallet,
        toAddress: b.call.to.toLowerCase(),
        value: '0',
        nonce: b.nonce,
        vault: stored,
        expiresAt,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      if (!row) throw new Error('vault transaction id collision');
      views.push(await recordTransactionChange(tx, row, null, signingKeyCause(ctx.actor, `${b.call.call} of ${amounts.assets} ${vault.metadata.asset.symbol} (vault ${vault.ref.vaultId}), step ${i + 1} of ${built.length}`), ctx.now));
    }
    return views;
  });
}

/**
 * prepare-vault-deposit (docs/products.md#vaults): the asset's `approve` of the vault when the wallet's allowance is
 * short of the amount, then the vault's `deposit(assets, wallet)`; nothing is signed or sent here.
 */
export async function prepareVaultDeposit(ctx: MutationContext, deps: PrepareDeps, input: { accountId: string; vaultId: string; amount: string }): Promise<PreparedVaultTransactions> {
  const subject = await preparationSubject(ctx, deps, input.accountId, input.vaultId);
  const { vault, wallet } = subject;
  const asset = vault.metadata.asset;
  const assets = toBaseUnits(input.amount, asset.decimals, '/amount');
  let shares: bigint;
  let needsApprove: boolean;
  try {
    const [balance, allowed, preview] = await Promise.all([tokenBalance(vault.chain, asset.address, wallet), allowance(vault.chain, asset.address, wallet, vault.ref.address), previewDeposit(vault.chain, vault.ref.address, assets)]);
    if (balance < assets) throw new ApiError('insufficient_funds', `The wallet holds ${formatUnits(balance, asset.decimals)} ${asset.symbol}, less than ${input.amount}`);
    shares = preview;
    needsApprove = allowed < assets;
  } catch (err) {
    throw chainReadProblem(err);
  }
  const plan: PlannedCall[] = [];
  // Exactly the amount, never an unlimited allowance: the vault can take no more than this deposit.
  if (needsApprove) plan.push({ call: 'approve', to: asset.address, data: encodeApprove(vault.ref.address, assets) });
  plan.push({ call: 'deposit', to: vault.ref.address, data: encodeDeposit(assets, wallet), ...(needsApprove ? { gas: deps.config.depositGasLimit } : {}) });
  const amounts = { assets: formatUnits(assets, asset.decimals), shares: formatUnits(shares, vault.metadata.decimals) };
  const transactions = await recordPrepared(ctx, deps, subject, 'vault_deposit', plan, amounts, ['vault_deposit', input.accountId, vault.ref.vaultId, input.amount]);
  return { accountId: subject.account.id, vaultId: vault.ref.vaultId, preview: amounts, transactions };
}

/**
 * prepare-vault-withdrawal: `withdraw(assets, wallet, wallet)` for an amount of the asset, or `redeem(shares, wallet,
 * wallet)` for a number of shares, within what the vault lets the wallet take out (maxWithdraw, maxRedeem).
 */
export async function prepareVaultWithdrawal(
  ctx: MutationContext,
  deps: PrepareDeps,
  input: { accountId: string; vaultId: string; amount?: string; shares?: string },
): Promise<PreparedVaultTransactions> {
  const subject = await preparationSubject(ctx, deps, input.accountId, input.vaultId);
  const { vault, wallet } = subject;
  const { asset } = vault.metadata;
  let call: PlannedCall;
  let amounts: { assets: string; shares: string };
  try {
    if (input.amount !== undefined) {
      const assets = toBaseUnits(input.amount, asset.decimals, '/amount');
      const [most, shares] = await Promise.all([maxWithdraw(vault.chain, vault.ref.address, wallet), previewWithdraw(vault.chain, vault.ref.address, assets)]);
      if (assets > most) throw new ApiError('insufficient_funds', `The position can give at most ${formatUnits(most, asset.decimals)} ${asset.symbol} now`);
      call = { call: 'withdraw', to: vault.ref.address, data: encodeWithdraw(assets, wallet, wallet) };
      amounts = { assets: formatUnits(assets, asset.decimals), shares: formatUnits(shares, vault.metadata.decimals) };
    } else {
      const shares = toBaseUnits(input.shares!, vault.metadata.decimals, '/shares');
      const [most, assets] = await Promise.all([maxRedeem(vault.chain, vault.ref.address, wallet), previewRedeem(vault.chain, vault.ref.address, shares)]);
      if (shares > most) throw new ApiError('insufficient_funds', `The position holds at most ${formatUnits(most, vault.metadata.decimals)} redeemable shares now`);
      call = { call: 'redeem', to: vault.ref.address, data: encodeRedeem(shares, wallet, wallet) };
      amounts = { assets: formatUnits(assets, asset.decimals), shares: formatUnits(shares, vault.metadata.decimals) };
    }
  } catch (err) {
    throw chainReadProblem(err);
  }
  const key = ['vault_withdrawal', input.accountId, vault.ref.vaultId, input.amount ?? null, input.shares ?? null];
  const transactions = await recordPrepared(ctx, deps, subject, 'vault_withdrawal', [call], amounts, key);
  return { accountId: subject.account.id, vaultId: vault.ref.vaultId, preview: amounts, transactions };
}


import type { ReceiptView } from '../../chain/receipts.js';
import type { TransactionRow } from '../../db/repositories/transactions.js';
import type { LedgerStatus } from '../../db/schema/index.js';
import type { IncomingView } from '../incoming/incoming-view.js';
import type { TokenTransferView } from '../tokens/token-transfer.js';
import type { StoredToken } from '../tokens/transaction-asset.js';
import type { StoredVaultCall, StoredWithdrawal } from '../transactions/transaction-view.js';
import { fiatAsset, nativeAsset, toMinorUnits, tokenAsset, type AssetRef } from './assets.js';
import { customerAccount, serviceAccount, type LedgerAccountRef } from './ledger-accounts.js';
import type { DesiredPosting, Leg } from './posting.js';

// What a transaction row means in the books, as of its current state (docs/ledger.md#postings). A pure function of
// the row: posted after each of its changes, in the same database transaction, it converges whatever was posted before.

/** Failures of something that reached the chain (or was signed for it): its value legs are archived. */
const CHAIN_FAILURES = new Set(['reverted', 'dropped', 'refused', 'reorged']);

export function transactionPostings(row: TransactionRow): DesiredPosting[] {
  const postings: DesiredPosting[] = [];
  const chain = chainPosting(row);
  if (chain) postings.push(chain);
  const gas = gasPosting(row);
  if (gas) postings.push(gas);
  const fiat = fiatPosting(row);
  if (fiat) postings.push(fiat);
  return postings;
}

function base(row: TransactionRow, leg: string, description: string): Omit<DesiredPosting, 'status' | 'blockNumber' | 'legs'> {
  return { causeKey: `transaction:${row.id}:${leg}`, causeType: 'transaction', causeId: row.id, integratorId: row.integratorId, description, chainId: row.chainId };
}

/** The customer's holding of an asset in its custodial wallet; a self-custodial wallet is outside the books. */
function walletOf(row: TransactionRow, asset: AssetRef): LedgerAccountRef {
  return row.walletId ? customerAccount(row.integratorId, row.accountId, asset) : serviceAccount('external', asset);
}

/** The asset and base units a deposit, refund or withdrawal moves: its token's, or the native coin's wei. */
function movedOf(row: TransactionRow): { asset: AssetRef; amount: bigint } {
  const token = row.token as StoredToken | null;
  if (token) return { asset: tokenAsset(row.chainId, token), amount: BigInt(row.tokenAmount ?? '0') };
  return { asset: nativeAsset(row.chainId), amount: BigInt(row.value) };
}

/** A movement between two holders in one asset. */
const move = (from: LedgerAccountRef, to: LedgerAccountRef, amount: bigint): Leg[] => [
  { account: from, amount: -amount },
  { account: to, amount },
];

function chainLegs(row: TransactionRow): Leg[] {
  switch (row.kind) {
    case 'transfer': {
      const native = nativeAsset(row.chainId);
      const legs = move(walletOf(row, native), serviceAccount('external', native), BigInt(row.value));
      const token = row.tokenTransfer as TokenTransferView | null;
      if (token) {
        // A listed token's transfer: the registry registered the asset with its decimals (registerLedgerAssets).
        const asset = tokenAsset(row.chainId, { address: token.tokenAddress, symbol: token.symbol, decimals: decimalsOf(token) });
        legs.push(...move(walletOf(row, asset), serviceAccount('external', asset), BigInt(token.amountRaw)));
      }
      return legs;
    }
    case 'deposit':
    case 'refund': {
      const { asset, amount } = movedOf(row);
      return move(serviceAccount('treasury', asset), walletOf(row, asset), amount);
    }
    case 'withdrawal': {
      const { asset, amount } = movedOf(row);
      return move(walletOf(row, asset), serviceAccount('treasury', asset), amount);
    }
    case 'incoming': {
      const view = row.incoming as IncomingView;
      const asset = view.tokenAddress ? tokenAsset(row.chainId, { address: view.tokenAddress, symbol: view.symbol, decimals: decimalsOf(view) }) : nativeAsset(row.chainId);
      return move(serviceAccount('external', asset), walletOf(row, asset), BigInt(view.amountRaw));
    }
    case 'vault_deposit':
    case 'vault_withdrawal':
      return vaultLegs(row);
  }
}

/** A vault's deposit, withdraw or redeem: the asset to or from the vault, its shares the other way (what settled, once it did). */
function vaultLegs(row: TransactionRow): Leg[] {
  const call = row.vault as StoredVaultCall | null;
  if (!call?.ledger || call.call === 'approve') return [];
  const asset = tokenAsset(row.chainId, { address: call.ledger.assetAddress, symbol: call.ledger.assetSymbol, decimals: call.assetDecimals });
  const share = tokenAsset(row.chainId, { address: call.ledger.vaultAddress, symbol: call.ledger.shareSymbol, decimals: call.shareDecimals });
  const amounts = call.settled ?? { assets: call.assets, shares: call.shares ?? '0' };
  const assets = toMinorUnits(amounts.assets, call.assetDecimals);
  const shares = toMinorUnits(amounts.shares, call.shareDecimals);
  const wallet = (a: AssetRef) => walletOf(row, a);
  const vault = (a: AssetRef) => serviceAccount('external', a);
  return call.call === 'deposit' ? [...move(wallet(asset), vault(asset), assets), ...move(vault(share), wallet(share), shares)] : [...move(vault(asset), wallet(asset), assets), ...move(wallet(share), vault(share), shares)];
}

/** An amount's decimals from its two writings (`12.5` and `12500000`: 6); 18 when it cannot tell (an amount of 0). */
function decimalsOf(amount: { amount: string; amountRaw: string }): number {
  const raw = BigInt(amount.amountRaw);
  if (raw === 0n) return 18;
  for (let decimals = 0; decimals <= 36; decimals++) {
    const units = safeMinor(amount.amount, decimals);
    if (units === raw) return decimals;
  }
  return 18;
}

function safeMinor(amount: string, decimals: number): bigint | undefined {
  try {
    return toMinorUnits(amount, decimals);
  } catch {
    return undefined;
  }
}

/**
 * The movement on chain: pending from signing, with its block once mined (posted when the block is final,
 * finalize.ts), archived if it failed there; an incoming transfer completes only once final, so it posts then.
 */
function chainPosting(row: TransactionRow): DesiredPosting | undefined {
  if (!row.transactionHash) return undefined;
  const receipt = row.receipt as ReceiptView | null;
  let status: LedgerStatus = 'pending';
  let blockNumber: number | null = null;
  if (row.status === 'failed' && CHAIN_FAILURES.has(row.failureReason ?? '')) status = 'archived';
  else if (row.kind === 'incoming') status = row.status === 'completed' ? 'posted' : 'pending';
  else if (receipt?.status === 'success') blockNumber = receipt.blockNumber;
  else if (row.status !== 'processing') return undefined;
  const legs = chainLegs(row);
  if (legs.length === 0) return undefined;
  return { ...base(row, 'chain', `${row.kind} on chain ${row.chainId}`), status, blockNumber, minedIn: blockNumber ?? row.blockNumber, legs };
}

/** The network fee the sender paid in the chain's coin (mined, reverted or not): pending until its block is final. */
function gasPosting(row: TransactionRow): DesiredPosting | undefined {
  const receipt = row.receipt as ReceiptView | null;
  if (!receipt || row.kind === 'incoming') return undefined;
  const fee = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice) + BigInt(receipt.blobGasUsed || '0') * BigInt(receipt.blobGasPrice || '0');
  if (fee === 0n) return undefined;
  const native = nativeAsset(row.chainId);
  const payer = row.kind === 'deposit' || row.kind === 'refund' ? serviceAccount('treasury', native) : walletOf(row, native);
  return { ...base(row, 'gas', `network fee of ${row.kind} on chain ${row.chainId}`), status: 'pending', blockNumber: receipt.blockNumber, legs: move(payer, serviceAccount('network_fees', native), fee) };
}

/**
 * The fiat side: a deposit's bank transfer received (the bank holds it, the service sold crypto for it); a
 * withdrawal's crypto arrived (the service bought it for the payout it owes and the fee it earned).
 */
function fiatPosting(row: TransactionRow): DesiredPosting | undefined {
  if (row.kind === 'deposit' && row.receivedAmount && row.depositCurrency) {
    const fiat = fiatAsset(row.depositCurrency);
    const received = toMinorUnits(row.receivedAmount, 2);
    return { ...base(row, 'fiat', `deposit ${row.depositReference ?? ''} received`.trim()), chainId: null, status: 'posted', blockNumber: null, legs: move(serviceAccount('exchange', fiat), serviceAccount('fiat_clearing', fiat), received) };
  }
  const payingOut = row.status === 'funds_in_transfer' || row.status === 'completed' || row.failureReason === 'payout_returned';
  if (row.kind === 'withdrawal' && payingOut && row.withdrawal) {
    const w = row.withdrawal as StoredWithdrawal;
    const fiat = fiatAsset(w.currency);
    const amount = toMinorUnits(w.amount, 2);
    const fee = toMinorUnits(w.fee, 2);
    const legs: Leg[] = [
      { account: serviceAccount('exchange', fiat), amount: amount + fee },
      { account: serviceAccount('fees_earned', fiat), amount: -fee },
      { account: serviceAccount('payouts_in_transit', fiat), amount: -amount },
    ];
    return { ...base(row, 'fiat', `withdrawal payout owed`), chainId: null, status: 'posted', blockNumber: null, legs };
  }
  return undefined;
}

import { erc4626Abi, formatUnits, parseEventLogs, type Hash } from 'viem';
import type { ChainClient } from '../../chain/chain-client.js';
import type { TransactionRow } from '../../db/repositories/transactions.js';
import type { StoredVaultCall } from '../transactions/transaction-view.js';

/**
 * What a completed vault call actually moved, from the vault's own Deposit or Withdraw event in the receipt: a
 * redemption's assets, or a deposit's shares, can differ from the preview when the share price moved between
 * preparation and mining. Undefined for an approve (or a receipt without the event). Throws RpcFailure.
 */
export async function settledVaultCall(chain: ChainClient, row: TransactionRow): Promise<StoredVaultCall | undefined> {
  const call = row.vault as StoredVaultCall | null;
  if (!call || call.call === 'approve' || !row.transactionHash || !row.toAddress) return undefined;
  const logs = await chain.receiptLogs(row.transactionHash as Hash);
  const vaultLogs = logs.filter((l) => l.address.toLowerCase() === row.toAddress!.toLowerCase());
  const events = parseEventLogs({ abi: erc4626Abi, logs: vaultLogs, eventName: call.call === 'deposit' ? 'Deposit' : 'Withdraw', strict: true });
  const event = events[0];
  if (!event) return undefined;
  const { assets, shares } = event.args as { assets: bigint; shares: bigint };
  return { ...call, settled: { assets: formatUnits(assets, call.assetDecimals), shares: formatUnits(shares, call.shareDecimals) } };
}

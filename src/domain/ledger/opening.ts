import type { Address } from 'viem';
import type { ChainClient } from '../../chain/chain-client.js';
import { readBalances } from '../../chain/balance-lens.js';
import type { Database } from '../../db/database.js';
import { claimLedgerOpening, custodialWallets, ledgerOpeningOf } from '../../db/repositories/ledger-writes.js';
import type { Token } from '../tokens/token-registry.js';
import { nativeAsset, tokenAsset, type AssetRef } from './assets.js';
import { customerAccount, serviceAccount, type LedgerAccountRef } from './ledger-accounts.js';
import { postLedger } from './post.js';
import type { DesiredPosting } from './posting.js';

export interface LedgerOpeningDeps {
  database: Database;
  chainId: number;
  chain: ChainClient;
  /** The chain's listed tokens. */
  tokens: readonly Token[];
  /** The treasury's address, when the deployment has one. */
  treasury: Address | undefined;
  /** Blocks a movement needs to be final: the opening reads the last final block. */
  confirmations: number;
  now: () => Date;
}

/**
 * Opens the ledger on a chain (docs/ledger.md#opening-balances): what the treasury and every custodial wallet hold at
 * the last final block is posted as their opening balance (against opening_balances), once per chain, whichever
 * process gets there first. A movement mined at or before that block posts nothing later (it is in the opening).
 * On a new deployment that is the treasury's funding; on an upgrade, what earlier versions moved. Answers the block.
 */
export async function openLedger(deps: LedgerOpeningDeps): Promise<number> {
  const { database, chainId } = deps;
  const opened = await ledgerOpeningOf(database.db, chainId);
  if (opened !== undefined) return opened;
  const head = Number(await deps.chain.blockNumber());
  const block = Math.max(0, head - deps.confirmations + 1);
  const wallets = await custodialWallets(database.db);
  const holders: { key: string; address: string; account: (asset: AssetRef) => LedgerAccountRef; integratorId: string | null }[] = [
    ...(deps.treasury ? [{ key: 'treasury', address: deps.treasury.toLowerCase(), account: (a: AssetRef) => serviceAccount('treasury', a), integratorId: null }] : []),
    ...wallets.map((w) => ({ key: w.accountId, address: w.address, account: (a: AssetRef) => customerAccount(w.integratorId, w.accountId, a), integratorId: w.integratorId })),
  ];
  const figures = holders.length === 0 ? [] : await readBalances(deps.chain, holders.map((h) => h.address as Address), deps.tokens.map((t) => t.address), BigInt(block));
  const assets = [nativeAsset(chainId), ...deps.tokens.map((t) => tokenAsset(chainId, t))];
  const postings: DesiredPosting[] = holders.map((holder, i) => {
    const amounts = [figures[i]!.native, ...deps.tokens.map((_t, j) => figures[i]!.tokens[j] ?? 0n)];
    return {
      causeKey: `opening:${chainId}:${holder.key}`,
      causeType: 'opening',
      causeId: null,
      integratorId: holder.integratorId,
      description: `opening balance on chain ${chainId} at block ${block}`,
      status: 'posted',
      chainId,
      blockNumber: block,
      minedIn: block,
      legs: assets.flatMap((asset, k) => [
        { account: holder.account(asset), amount: amounts[k]! },
        { account: serviceAccount('opening_balances', asset), amount: -amounts[k]! },
      ]),
    };
  });
  await database.db.transaction(async (tx) => {
    if (!(await claimLedgerOpening(tx, chainId, block, deps.now()))) return;
    await postLedger(tx, postings, deps.now());
  });
  return (await ledgerOpeningOf(database.db, chainId)) ?? block;
}

import type { Address } from 'viem';
import type { CustodyKeys } from '../../chain/custody-keys.js';
import { treasuryFor } from '../../chain/treasury.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { confirmationsFor } from '../incoming/incoming-config.js';
import type { ChainRegistry } from '../../chain/chain-client.js';
import { readBalances } from '../../chain/balance-lens.js';
import type { Database } from '../../db/database.js';
import { custodialWallets } from '../../db/repositories/ledger-writes.js';
import { insertBreaks, insertRun, ledgerFiguresAt, type RunRow } from '../../db/repositories/reconciliation.js';
import type { TokenRegistry } from '../tokens/token-registry.js';
import { newId } from '../ids.js';
import { nativeAsset, tokenAsset, type AssetRef } from '../ledger/assets.js';
import { customerAccount, ledgerAccountCode, serviceAccount } from '../ledger/ledger-accounts.js';
import { recordOperatorEvent } from './operator-events.js';

export interface ChainReconciliationDeps {
  database: Database;
  chains: ChainRegistry;
  tokens: TokenRegistry;
  /** The treasury's address, when the deployment has one. */
  treasury: Address | undefined;
  /** Blocks a movement needs to be final, per chain (CHAIN_CONFIRMATIONS). */
  confirmations: (chainId: number) => number;
  now: () => Date;
}

/** What a chain run reads, from the process's system: every chain, the treasury and the custodial wallets. */
export function chainReconciliationDeps(system: { database: Database; chains: ChainRegistry; tokens: TokenRegistry; config: Config; secrets: SecretBox; custody?: CustodyKeys | undefined; clock: Clock }): ChainReconciliationDeps {
  const { config } = system;
  const treasury = treasuryFor({ key: config.deposits.treasuryKey, sandbox: config.appEnv === 'sandbox', secrets: system.secrets, custody: system.custody });
  return { database: system.database, chains: system.chains, tokens: system.tokens, treasury: treasury?.address, confirmations: (chainId) => confirmationsFor(config.incoming, chainId), now: system.clock };
}

export type RunTrigger = { trigger: 'operator'; operatorId: string } | { trigger: 'cli' | 'schedule' };

interface Holding {
  chainId: number;
  block: number;
  code: string;
  asset: AssetRef;
  address: string;
  customer: { integratorId: string; accountId: string } | null;
  chain: bigint;
}

/** One chain's holdings at its last final block: the treasury's and every custodial wallet's, each asset. */
async function holdingsOf(deps: ChainReconciliationDeps, chainId: number, wallets: { accountId: string; integratorId: string; address: string }[]): Promise<Holding[]> {
  const chain = deps.chains.get(chainId)!;
  const block = Math.max(0, Number(await chain.blockNumber()) - deps.confirmations(chainId) + 1);
  const tokens = deps.tokens.list(chainId);
  const assets = [nativeAsset(chainId), ...tokens.map((t) => tokenAsset(chainId, t))];
  const holders = [
    ...(deps.treasury ? [{ address: deps.treasury.toLowerCase(), customer: null }] : []),
    ...wallets.map((w) => ({ address: w.address, customer: { integratorId: w.integratorId, accountId: w.accountId } })),
  ];
  if (holders.length === 0) return [];
  const figures = await readBalances(chain, holders.map((h) => h.address as Address), tokens.map((t) => t.address), BigInt(block));
  return holders.flatMap((holder, i) =>
    assets.map((asset, k) => ({
      chainId,
      block,
      code: ledgerAccountCode(holder.customer ? customerAccount(holder.customer.integratorId, holder.customer.accountId, asset) : serviceAccount('treasury', asset)),
      asset,
      address: holder.address,
      customer: holder.customer,
      chain: k === 0 ? figures[i]!.native : (figures[i]!.tokens[k - 1] ?? 0n),
    })),
  );
}

/**
 * Reconciles the ledger with every chain (docs/reconciliation.md#against-the-chain): for the treasury and every custodial
 * wallet, each asset's balance on chain at the last final block against the ledger's figure at that block. Each
 * difference is a break (the account, the asset, both figures and the block). One run record with its breaks and
 * the operators' event `reconciliation.completed`, in one database transaction.
 */
export async function runChainReconciliation(deps: ChainReconciliationDeps, by: RunTrigger): Promise<RunRow> {
  const startedAt = deps.now();
  const wallets = await custodialWallets(deps.database.db);
  const holdings = (await Promise.all(deps.chains.chainIds().map((chainId) => holdingsOf(deps, chainId, wallets)))).flat();
  const breaks: { holding: Holding; ledger: bigint }[] = [];
  for (const chainId of deps.chains.chainIds()) {
    const mine = holdings.filter((h) => h.chainId === chainId);
    if (mine.length === 0) continue;
    const ledger = await ledgerFiguresAt(deps.database.db, chainId, mine[0]!.block, mine.map((h) => h.code));
    for (const holding of mine) {
      const figure = ledger.get(holding.code) ?? 0n;
      if (figure !== holding.chain) breaks.push({ holding, ledger: figure });
    }
  }
  const runId = newId();
  const completedAt = deps.now();
  // The block each chain was read at (every holding of a chain is of one block).
  const blocks = Object.fromEntries(holdings.map((h) => [String(h.chainId), h.block]));
  const summary = { breaks: breaks.length, holdings: holdings.length, blocks };
  return deps.database.db.transaction(async (tx) => {
    const run = await insertRun(tx, { id: runId, kind: 'chain', trigger: by.trigger, operatorId: by.trigger === 'operator' ? by.operatorId : null, summary, startedAt, completedAt });
    await insertBreaks(
      tx,
      breaks.map(({ holding, ledger }) => ({
        id: newId(),
        runId,
        chainId: holding.chainId,
        blockNumber: holding.block,
        ledgerAccountCode: holding.code,
        asset: holding.asset.code,
        symbol: holding.asset.symbol,
        decimals: holding.asset.decimals,
        integratorId: holding.customer?.integratorId ?? null,
        accountId: holding.customer?.accountId ?? null,
        address: holding.address,
        ledgerAmount: ledger.toString(),
        chainAmount: holding.chain.toString(),
        difference: (holding.chain - ledger).toString(),
        status: 'open' as const,
        createdAt: completedAt,
      })),
    );
    await recordOperatorEvent(tx, 'reconciliation.completed', { runId, kind: 'chain', ...summary }, completedAt);
    return run!;
  });
}

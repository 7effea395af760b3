import type { Address } from 'viem';
import { tokenBalanceOf } from '../../chain/token-preflight.js';
import type { ChainRegistry } from '../../chain/chain-client.js';
import type { Treasury } from '../../chain/treasury.js';
import type { Executor } from '../../db/database.js';
import { listWaitingPayouts } from '../../db/repositories/deposits.js';
import { tokenAmount, type TokenAmount } from '../tokens/amounts.js';
import { nativeSymbol, type TokenRegistry } from '../tokens/token-registry.js';
import { cryptoAmountOf, type CryptoAmountView } from '../tokens/transaction-asset.js';

/** The treasury's holding of one asset on one chain; `amount` null when its chain did not answer (`error` says why). */
export interface TreasuryBalanceView extends Partial<TokenAmount> {
  chainId: number;
  symbol: string;
  /** null for the chain's native coin. */
  tokenAddress: string | null;
  decimals: number;
  error?: string;
}

/** A payout (a deposit's, a refund's) whose last attempt failed and that waits: its reason, usually an unfunded treasury. */
export interface WaitingPayoutView extends CryptoAmountView {
  transactionId: string;
  kind: 'deposit' | 'refund';
  chainId: number;
  /** Deposits: the reference on the bank instructions. */
  reference: string | null;
  payoutError: string;
  attempts: number;
  since: string;
}

export interface TreasuryView {
  address: string | null;
  chainIds: number[];
  balances: TreasuryBalanceView[];
  waitingPayouts: WaitingPayoutView[];
}

/** How many waiting payouts the view lists (oldest first); more are there to see in the deposits' payoutError. */
const WAITING_SHOWN = 100;

/**
 * GET /admin/api/treasury (docs/tokens.md#deposits-and-withdrawals): the treasury's address, its balance of every
 * chain's native coin and of every listed token, read now from the chains, and the payouts that wait (with why), so
 * that operators know what to fund. A chain that does not answer shows its error instead of a figure.
 */
export async function treasuryView(db: Executor, chains: ChainRegistry, tokens: TokenRegistry, treasury: Treasury | undefined): Promise<TreasuryView> {
  const chainIds = chains.chainIds();
  const balances: TreasuryBalanceView[] = [];
  if (treasury) {
    const perChain = await Promise.all(chainIds.map((chainId) => chainBalances(chains, tokens, chainId, treasury.address)));
    balances.push(...perChain.flat());
  }
  const waitingPayouts = (await listWaitingPayouts(db, WAITING_SHOWN)).map((row) => ({
    transactionId: row.transactionId,
    kind: row.kind as 'deposit' | 'refund',
    chainId: row.chainId,
    reference: row.depositReference,
    ...cryptoAmountOf(row),
    payoutError: row.payoutError ?? '',
    attempts: row.payoutAttempts,
    since: row.updatedAt.toISOString(),
  }));
  return { address: treasury?.address ?? null, chainIds, balances, waitingPayouts };
}

async function chainBalances(chains: ChainRegistry, tokens: TokenRegistry, chainId: number, owner: Address): Promise<TreasuryBalanceView[]> {
  const chain = chains.get(chainId)!;
  const assets = [
    { symbol: nativeSymbol(chainId), tokenAddress: null, decimals: 18, read: () => chain.nativeBalance(owner) },
    ...tokens.list(chainId).map((t) => ({ symbol: t.symbol, tokenAddress: t.address, decimals: t.decimals, read: () => tokenBalanceOf(chain, t.address, owner) })),
  ];
  return Promise.all(
    assets.map(async ({ read, ...asset }) => {
      try {
        return { chainId, ...asset, ...tokenAmount(await read(), asset.decimals) };
      } catch (err) {
        return { chainId, ...asset, error: (err as Error).message.slice(0, 300) };
      }
    }),
  );
}

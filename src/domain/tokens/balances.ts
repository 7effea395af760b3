import type { Address } from 'viem';
import type { ChainRegistry } from '../../chain/chain-client.js';
import { RpcFailure } from '../../chain/rpc-failure.js';
import type { OwnerBalances } from '../../chain/balance-lens.js';
import type { Executor } from '../../db/database.js';
import { findAccount } from '../../db/repositories/accounts.js';
import { ApiError, notFound } from '../errors.js';
import { tokenAmount, type TokenAmount } from './amounts.js';
import { blockTimeMs, ChainBalanceBook, MAX_WATCHED } from './balance-book.js';
import { nativeSymbol, type Token, type TokenRegistry } from './token-registry.js';

/** One asset's balance on one chain, as get-account-balances shows it (docs/tokens.md#balances). */
export interface BalanceView extends TokenAmount {
  chainId: number;
  symbol: string;
  /** null for the chain's native coin. */
  tokenAddress: string | null;
  decimals: number;
  /** The block every figure of this chain was read at. */
  blockNumber: number;
}

export interface AccountBalancesView {
  accountId: string;
  walletAddress: string;
  balances: BalanceView[];
}

/**
 * What accounts hold, on every configured chain: the native coin and every listed token, each chain's figures of one
 * block, read through one ChainBalanceBook per chain (one per process: the cache and the coalescing are shared by
 * every request).
 */
export class AccountBalances {
  private readonly books = new Map<number, { book: ChainBalanceBook; tokens: Token[] }>();
  private readonly wallets = new AccountWallets();

  constructor(
    private readonly chains: ChainRegistry,
    tokens: TokenRegistry,
  ) {
    for (const chainId of chains.chainIds()) {
      // Tokens by symbol: the order the answer lists them in.
      const listed = tokens.list(chainId).sort((a, b) => a.symbol.localeCompare(b.symbol));
      this.books.set(chainId, { book: new ChainBalanceBook(chains.get(chainId)!, listed.map((t) => t.address)), tokens: listed });
    }
  }

  async get(db: Executor, integratorId: string, accountId: string): Promise<AccountBalancesView> {
    let account = this.wallets.get(integratorId, accountId);
    if (!account) {
      const row = await findAccount(db, integratorId, accountId);
      if (!row) throw notFound('Account');
      if (!row.walletAddress) throw new ApiError('account_without_wallet', 'The account has no wallet to hold balances (create-user accounts have none; an older entity account gets one with create-entity-wallet)');
      account = { id: row.id, walletAddress: row.walletAddress };
      this.wallets.set(integratorId, accountId, account);
    }
    const wallet = account.walletAddress as Address;
    const perChain = await Promise.all(this.chains.chainIds().map((chainId) => this.chainBalances(chainId, wallet)));
    return { accountId: account.id, walletAddress: account.walletAddress, balances: perChain.flat() };
  }

  private async chainBalances(chainId: number, wallet: Address): Promise<BalanceView[]> {
    const { book, tokens } = this.books.get(chainId)!;
    let reading: OwnerBalances;
    try {
      reading = await book.get(wallet);
    } catch (err) {
      if (!(err instanceof RpcFailure)) throw err;
      throw unavailable(chainId, `its node did not answer (${err.code}: ${err.message})`);
    }
    const blockNumber = Number(reading.blockNumber);
    const native: BalanceView = { chainId, symbol: nativeSymbol(chainId), tokenAddress: null, decimals: 18, ...tokenAmount(reading.native, 18), blockNumber };
    return [
      native,
      ...tokens.map((token, i) => {
        const raw = reading.tokens[i];
        if (raw === undefined) throw unavailable(chainId, `${token.symbol} (${token.address}) did not answer balanceOf`);
        return { chainId, symbol: token.symbol, tokenAddress: token.address, decimals: token.decimals, ...tokenAmount(raw, token.decimals), blockNumber };
      }),
    ];
  }
}

/** How many accounts' wallets a process keeps (about 250 bytes each): twice the wallets a balance book watches. */
export const MAX_ACCOUNT_WALLETS = 2 * MAX_WATCHED;

/**
 * The wallet of each account asked for, by integrator and account, so that a balance read makes no database
 * statement for an account seen before (it was one statement a request, about half of the process's CPU under
 * load: docs/benchmarks.md#balances). Exact without any invalidation: an account is never deleted, never changes
 * integrator, and its wallet address, once set, never changes (attachCustodialWallet only fills a null one). So
 * only accounts with a wallet are kept; a missing, foreign or walletless account is read from the database each
 * time, and the key holds the integrator, so one integrator's entry never answers another's request.
 * Least recently asked first out beyond `capacity`.
 */
export class AccountWallets {
  private readonly entries = new Map<string, { id: string; walletAddress: string }>();

  constructor(private readonly capacity = MAX_ACCOUNT_WALLETS) {}

  get(integratorId: string, accountId: string): { id: string; walletAddress: string } | undefined {
    const key = `${integratorId}/${accountId}`;
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is the eviction order: the least recently asked go first.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(integratorId: string, accountId: string, account: { id: string; walletAddress: string }): void {
    const key = `${integratorId}/${accountId}`;
    this.entries.delete(key);
    this.entries.set(key, account);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/** 503 with Retry-After of about a block: never an older figure in place of one the node did not give. */
function unavailable(chainId: number, why: string): ApiError {
  const retryAfter = String(Math.max(1, Math.ceil(blockTimeMs(chainId) / 1000)));
  return new ApiError('service_unavailable', `The balances on chain ${chainId} cannot be read now: ${why}. Retry shortly`, { headers: { 'retry-after': retryAfter } });
}

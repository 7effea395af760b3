import type { Address } from 'viem';
import { RpcFailure, type ChainRegistry } from '../../chain/chain-client.js';
import type { OwnerBalances } from '../../chain/balance-lens.js';
import type { Executor } from '../../db/database.js';
import { findAccount } from '../../db/repositories/accounts.js';
import { ApiError, notFound } from '../errors.js';
import { tokenAmount, type TokenAmount } from './amounts.js';
import { blockTimeMs, ChainBalanceBook } from './balance-book.js';
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
    const account = await findAccount(db, integratorId, accountId);
    if (!account) throw notFound('Account');
    if (!account.walletAddress) throw new ApiError('account_without_wallet', 'The account has no wallet to hold balances (create-user accounts have none; an older entity account gets one with create-entity-wallet)');
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

/** 503 with Retry-After of about a block: never an older figure in place of one the node did not give. */
function unavailable(chainId: number, why: string): ApiError {
  const retryAfter = String(Math.max(1, Math.ceil(blockTimeMs(chainId) / 1000)));
  return new ApiError('service_unavailable', `The balances on chain ${chainId} cannot be read now: ${why}. Retry shortly`, { headers: { 'retry-after': retryAfter } });
}

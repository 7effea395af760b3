import { Type } from 'typebox';
import { FORMATS, patterned } from './patterns.js';
import { LedgerFiguresSchema } from './ledger.js';

/** A listed ERC-20 (docs/tokens.md). */
export const TokenSchema = Type.Object(
  {
    chainId: Type.Integer({ description: 'The chain the token lives on (CHAIN_RPC_URLS)' }),
    symbol: Type.String({ description: 'The symbol requests name it by (`asset`), as TOKENS lists it', examples: ['USDC'] }),
    address: patterned(FORMATS.address, { description: 'The token contract, checksummed' }),
    decimals: Type.Integer({ minimum: 0, maximum: 36, description: 'decimals() of the contract: a unit is 10^decimals base units' }),
  },
  { additionalProperties: false, title: 'ListedToken', description: 'A listed ERC-20: money moves in it besides the chain’s native coin' },
);

export const TokenListSchema = Type.Object({ data: Type.Array(TokenSchema) }, { additionalProperties: false, title: 'TokenList' });

/** An amount of a token or coin: in its units (a decimal string, never a float) and the same in base units. */
export const TokenAmountFields = {
  amount: patterned(FORMATS.decimal, { description: 'In the asset’s units, a decimal string (never a float)', examples: ['12.5'] }),
  amountRaw: patterned(FORMATS.integer, { description: 'The same amount in base units (10^-decimals of a unit), an integer string', examples: ['12500000'] }),
};

/** One asset's balance on one chain (docs/tokens.md#balances). */
export const BalanceSchema = Type.Object(
  {
    chainId: Type.Integer({ description: 'The chain (CHAIN_RPC_URLS)' }),
    symbol: Type.String({ description: 'The native coin’s symbol (ETH on Ethereum and its L2s) or the listed token’s', examples: ['USDC'] }),
    tokenAddress: Type.Union([patterned(FORMATS.address), Type.Null()], { description: 'The token contract, checksummed; null for the chain’s native coin' }),
    decimals: Type.Integer({ minimum: 0, maximum: 36, description: '18 for the native coin; the token’s decimals()' }),
    ...TokenAmountFields,
    blockNumber: Type.Integer({ minimum: 0, description: 'The block every balance of this chain was read at (one block per chain)' }),
    ledger: LedgerFiguresSchema,
  },
  { additionalProperties: false, title: 'Balance' },
);

export const AccountBalancesSchema = Type.Object(
  {
    accountId: Type.String({ format: 'uuid' }),
    walletAddress: patterned(FORMATS.address, { description: 'The account’s wallet, whose balances these are' }),
    balances: Type.Array(BalanceSchema, { description: 'By chainId; on each chain the native coin first, then the listed tokens by symbol' }),
  },
  { additionalProperties: false, title: 'AccountBalances' },
);

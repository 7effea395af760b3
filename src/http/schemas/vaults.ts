import { Type, type Static } from 'typebox';
import { Nullable, Uuid } from './onboarding/common.js';
import { TransactionRef } from './transactions.js';
import { FORMATS, patterned } from './patterns.js';

// The vault shapes (docs/products.md#vaults), named components of the OpenAPI document (registered in app.ts).

export const Amount = (description: string) => patterned(FORMATS.vaultAmount, { maxLength: 100, description });
const Address = patterned(FORMATS.lowercaseAddress, { description: 'Lowercase hex' });
const TokenSchema = Type.Object({ address: Address, symbol: Type.String(), decimals: Type.Integer({ minimum: 0, maximum: 255 }) }, { additionalProperties: false, title: 'Token' });
const Apy = (days: number) =>
  Nullable(Type.Number({ description: `Annual percentage yield over the last ${days} days as a fraction (0.05 is 5 %), compounded, from this service’s share-price snapshots; null until it has ${days} days of them (docs/products.md#apy)` }));

export const VaultSchema = Type.Object(
  {
    vaultId: Uuid('Derived from chain and address: the same on every deployment'),
    chainId: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    address: Address,
    name: Type.String({ description: 'The vault share token’s name, read from the contract' }),
    symbol: Type.String(),
    decimals: Type.Integer({ minimum: 0, maximum: 255, description: 'The vault share’s decimals' }),
    asset: TokenSchema,
    totalAssets: Amount('The assets the vault holds, in the asset’s units'),
    sharePrice: Amount('What one whole share converts to now (convertToAssets), in the asset’s units'),
    apy7d: Apy(7),
    apy30d: Apy(30),
  },
  { $id: 'Vault', additionalProperties: false, description: 'An ERC-4626 yield vault (docs/products.md#vaults)' },
);
export const VaultRef = Type.Unsafe<Static<typeof VaultSchema>>(Type.Ref('Vault'));

export const PositionSchema = Type.Object(
  {
    accountId: Uuid(),
    vaultId: Uuid(),
    chainId: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    shares: Amount('Vault shares the account’s wallet holds'),
    assets: Amount('What they convert to now, in the asset'),
    netDeposited: patterned(FORMATS.signedDecimal, { description: 'Deposited minus withdrawn through this service, as the vault recorded them' }),
    earnings: patterned(FORMATS.signedDecimal, { description: 'assets - netDeposited' }),
    asset: TokenSchema,
  },
  { $id: 'VaultPosition', additionalProperties: false, description: 'An account’s position in a vault (docs/products.md#positions)' },
);
export const PositionRef = Type.Unsafe<Static<typeof PositionSchema>>(Type.Ref('VaultPosition'));

export const PreparedSchema = Type.Object(
  {
    accountId: Uuid(),
    vaultId: Uuid(),
    preview: Type.Object({ assets: Amount('In the asset'), shares: Amount('In vault shares') }, { additionalProperties: false, description: 'The vault’s previewDeposit, previewWithdraw or previewRedeem' }),
    transactions: Type.Array(TransactionRef, { description: 'To approve in this order with send-transaction-passkey or -otp, each under its transactionId' }),
  },
  { $id: 'PreparedVaultTransactions', additionalProperties: false },
);
export const PreparedRef = Type.Unsafe<Static<typeof PreparedSchema>>(Type.Ref('PreparedVaultTransactions'));


import { bigint, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns.js';

/**
 * Vaults an operator registered (`npm run admin -- vaults add|deploy-demo`), beside those of the VAULTS setting
 * (docs/products.md#vaults). The id is derived from chain and address, so a vault has the same id whichever way it
 * was configured, and keeps it across restarts.
 */
export const vaults = pgTable(
  'vaults',
  {
    id: id(),
    chainId: bigint('chain_id', { mode: 'number' }).notNull(),
    /** Lowercase hex. */
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('vaults_chain_address_key').on(t.chainId, t.address)],
);

/**
 * A vault's share price as this service observed it (the periodic snapshot job): the assets one whole share
 * converts to, in the asset's base units (decimal string: uint256). The APYs are computed from these.
 */
export const vaultSharePrices = pgTable(
  'vault_share_prices',
  {
    vaultId: uuid('vault_id').notNull(),
    recordedAt: at('recorded_at').notNull(),
    assetsPerShare: text('assets_per_share').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.vaultId, t.recordedAt] }), index('vault_share_prices_recorded_idx').on(t.recordedAt)],
);

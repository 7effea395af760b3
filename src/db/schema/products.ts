import { check, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { at, timestamps } from './columns.js';
import { accountId } from './customers.js';
import { integratorId } from './integrators.js';

/**
 * An account's choice about a product (docs/products.md): enabled (with the terms accepted, when the product has
 * terms) or disabled. No row: the product's default (enabled for the products accounts always had).
 */
export const accountProducts = pgTable(
  'account_products',
  {
    integratorId: integratorId(),
    accountId: accountId(),
    productId: text('product_id').notNull(),
    status: text('status', { enum: ['enabled', 'disabled'] }).notNull(),
    termsAcceptedAt: at('terms_accepted_at'),
    ...timestamps(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.productId] }),
    index('account_products_integrator_idx').on(t.integratorId),
    check('account_products_status_check', sql`${t.status} in ('enabled', 'disabled')`),
  ],
);

import { check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, updatedAt } from './columns.js';
import { accounts } from './customers.js';
import { integrators } from './integrators.js';

/**
 * An account's choice about a product (docs/products.md): enabled (with the terms accepted, when the product has
 * terms) or disabled. No row: the product's default (enabled for the products accounts always had).
 */
export const accountProducts = pgTable(
  'account_products',
  {
    integratorId: uuid('integrator_id')
      .notNull()
      .references(() => integrators.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    productId: text('product_id').notNull(),
    status: text('status', { enum: ['enabled', 'disabled'] }).notNull(),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.productId] }),
    index('account_products_integrator_idx').on(t.integratorId),
    check('account_products_status_check', sql`${t.status} in ('enabled', 'disabled')`),
  ],
);

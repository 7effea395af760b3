import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

export const integrators = pgTable('integrators', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const credentials = pgTable(
  'credentials',
  {
    id: uuid('id').primaryKey(),
    integratorId: uuid('integrator_id')
      .notNull()
      .references(() => integrators.id),
    /** Compressed SEC1 P-256 key, lower-case hex with 0x: the identity a request signs with. */
    publicKey: text('public_key').notNull(),
    label: text('label').notNull(),
    scope: text('scope', { enum: ['read_write', 'read_only'] }).notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('credentials_public_key_key').on(t.publicKey),
    index('credentials_integrator_idx').on(t.integratorId, t.id),
    check('credentials_scope_check', sql`${t.scope} in ('read_write', 'read_only')`),
  ],
);

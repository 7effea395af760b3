import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamps } from './columns.js';

export const integrators = pgTable('integrators', {
  id: id(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

/** The integrator a row belongs to. Here, not in columns.ts: that module is imported by this one, so must not import it back. */
export const integratorId = () =>
  uuid('integrator_id')
    .notNull()
    .references(() => integrators.id);

export const credentials = pgTable(
  'credentials',
  {
    id: id(),
    integratorId: integratorId(),
    /** Compressed SEC1 P-256 key, lower-case hex with 0x: the identity a request signs with. */
    publicKey: text('public_key').notNull(),
    label: text('label').notNull(),
    scope: text('scope', { enum: ['read_write', 'read_only'] }).notNull(),
    active: boolean('active').notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('credentials_public_key_key').on(t.publicKey),
    index('credentials_integrator_idx').on(t.integratorId, t.id),
    check('credentials_scope_check', sql`${t.scope} in ('read_write', 'read_only')`),
  ],
);

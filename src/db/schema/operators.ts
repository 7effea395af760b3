import { boolean, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';

/**
 * Compliance officers. They authenticate to /admin with a bearer token made by the operator CLI; only its
 * SHA-256 is stored. Operators are never integrators: no integrator credential reaches /admin.
 */
export const operators = pgTable(
  'operators',
  {
    id: id(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    active: boolean('active').notNull().default(true),
    /** reviewer: works cases and proposes; supervisor: also confirms or overturns another's proposal (four eyes). */
    role: text('role', { enum: ['reviewer', 'supervisor'] }).notNull().default('reviewer'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('operators_token_hash_key').on(t.tokenHash)],
);

import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** A row's own id: a UUID the application makes (no database default). */
export const id = () => uuid('id').primaryKey();

/** Every timestamp is a timestamptz read as a Date. */
export const at = <TName extends string>(name: TName) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Timestamps are written from the application clock; the default only covers manual inserts. */
export const createdAt = () => at('created_at').notNull().defaultNow();
export const updatedAt = () => at('updated_at').notNull().defaultNow();

/** createdAt and updatedAt, for the tables whose rows change. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });

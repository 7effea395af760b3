import { timestamp } from 'drizzle-orm/pg-core';

/** Timestamps are written from the application clock; the default only covers manual inserts. */
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

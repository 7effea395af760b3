import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

/**
 * Facts about the deployment itself, written once: `encryption_key_fingerprint`, which every process compares with
 * its own ENCRYPTION_KEY before it starts (src/crypto/key-check.ts).
 */
export const systemSettings = pgTable('system_settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

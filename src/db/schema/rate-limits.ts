import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at } from './columns.js';

/**
 * Requests counted per rate-limit key (a credential's public key) and fixed window, shared by every API process on
 * one PostgreSQL database when no REDIS_URL is set (src/http/auth/postgres-rate-counter.ts). Each process adds what it
 * counted since its last flush as one delta per key, every 100 ms or so, so a busy credential's row is written a few
 * times a second per process rather than once per request. The window's end is part of the key: processes running
 * with different RATE_LIMIT_WINDOW_SECONDS (during a rollout) do not add to each other's windows. Rows are purged
 * once their window ended (maintenance). The table is UNLOGGED (see its migration): counts are not worth WAL, and a
 * crash that empties it only gives every credential a fresh window.
 */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    key: text('key').notNull(),
    windowStart: at('window_start').notNull(),
    windowEnd: at('window_end').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart, t.windowEnd] })],
);

import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';

/** An outbox: rows `pending` until their `next_attempt_at`, claimed under a lease that pushes that time forward. */
type Outbox = PgTable & { id: AnyPgColumn; status: AnyPgColumn; nextAttemptAt: AnyPgColumn };

/**
 * The claims' CTE `due` (the mail outbox's, webhook deliveries'): up to `limit` pending rows due at `now`, soonest
 * first, locked FOR UPDATE SKIP LOCKED so concurrent claimers never take the same row. The claim's own update then
 * leases them (`from due where … = due.id`) and says what it counts and returns.
 */
export function dueRows(table: Outbox, now: Date, limit: number): SQL {
  return sql`due as (
      select ${table.id} from ${table}
      where ${table.status} = 'pending' and ${table.nextAttemptAt} <= ${now.toISOString()}::timestamptz
      order by ${table.nextAttemptAt}
      limit ${limit}
      for update skip locked
    )`;
}

import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { selectRows, type Executor } from '../database.js';

/**
 * The purges' batch. A thousand events, with their deliveries and attempts, took 12 ms to delete (21 ms at most) at
 * a million events on PostgreSQL (docs/scale.md): a writer queued behind one on PGlite's single connection hardly
 * waits, and no statement holds its row locks longer.
 */
export const DELETE_BATCH = 1000;

/**
 * Deletes at most `limit` rows of `table` matching `where`, in one statement (so one short transaction when run
 * outside one), and returns how many. The retention purges call it until it deletes fewer than `limit`
 * (workers/maintenance.ts), so no purge holds locks, or PGlite's one connection, for long.
 *
 * The rows are picked in `orderBy` order, which must be the column of an index serving `where`: the pick is then
 * an index range scan that stops after `limit` rows, and the dead entries that earlier batches left in that index
 * are skipped without visiting the table (a sequential scan would walk over every dead row of the batches before
 * it, whatever the planner estimates). Each picked row is then deleted by its physical address (`ctid = any(…)`:
 * a TID scan, never a join of the table with itself). `where` is checked again on the row being deleted: a row
 * updated meanwhile (a replay hash renewed) moved to another address or no longer matches, and is left alone.
 */
export async function deleteBounded(db: Executor, table: PgTable, where: SQL, limit: number, orderBy?: AnyPgColumn): Promise<number> {
  const rows = await selectRows<{ n: number }>(db, sql`
    with gone as (
      delete from ${table}
      where ctid = any(array(select ctid from ${table} where ${where} ${orderBy ? sql`order by ${orderBy}` : sql``} limit ${limit}))
        and ${where}
      returning 1
    )
    select count(*)::int as n from gone`);
  return Number(rows[0]?.n ?? 0);
}

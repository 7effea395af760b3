import type { PgliteEngine } from '../../src/db/database.js';
import { closedError, RemotePglite, type RemoteTransaction } from '../../src/db/pglite-thread/remote.js';
import { pgliteTemplate } from './pglite-template.js';

/**
 * In-memory PGlite engines for test databases, reused within a test process. Starting an engine from the template
 * dump costs about 1.2 s of CPU (the thread, the WebAssembly instance, 43 MB restored into its file system), and a
 * process of twelve test files opens a dozen or more; handing a closed test's engine to the next one costs a few
 * statements (the digest below, DISCARD ALL, a TRUNCATE).
 *
 * A reused engine must be indistinguishable from a fresh one, so it is taken back only when its test left nothing
 * running on it, and only while its catalog still reads as a fresh engine's did (no table, column, index, constraint,
 * function, setting, migration or planner statistic added, changed or removed): then every session state is
 * discarded and every table emptied. Anything else, and the engine is closed as before.
 */
const MAX_IDLE = 2;
const idle: RemotePglite[] = [];
let pristine: Promise<string> | undefined;
let tables: Promise<string[]> | undefined;

/** An engine for one test database: a pooled one reset to the template, or a new one. */
export async function leasePgliteEngine(): Promise<PgliteEngine> {
  const engine = idle.pop() ?? (await startFromTemplate());
  return new LeasedEngine(engine);
}

async function startFromTemplate(): Promise<RemotePglite> {
  // A copy (one memcpy), since the engine thread takes it over: the template's bytes serve the next engine too.
  const engine = await RemotePglite.start({ dir: undefined, template: new Uint8Array(await pgliteTemplate()).buffer });
  // The first engine of the process, untouched: what every engine must read as before it is reused.
  pristine ??= fingerprint(engine);
  tables ??= publicTables(engine);
  await pristine;
  return engine;
}

/** Takes the engine back into the pool when it can pass for a fresh one (above), else closes it. */
async function giveBack(engine: RemotePglite): Promise<void> {
  try {
    // Listeners, prepared statements, temporary tables, session settings, advisory locks.
    await engine.query('discard all');
    if (idle.length >= MAX_IDLE || (await fingerprint(engine)) !== (await pristine)) return void (await engine.close());
    await emptyTables(engine);
    idle.push(engine);
  } catch {
    await engine.close().catch(() => {});
  }
}

/** The engine, for one test database: after close nothing reaches it, as after a real engine's close. */
class LeasedEngine implements PgliteEngine {
  private closed = false;
  /** Calls and transactions still running: an engine closed with some is not reused. */
  private running = 0;
  private readonly unlisteners = new Set<() => Promise<void>>();
  /** Set by a close mid-call: closes the engine once the last call has ended. */
  private drained: (() => void) | undefined;

  constructor(private readonly engine: RemotePglite) {}

  query(sql: string, params?: unknown[], options?: Parameters<RemotePglite['query']>[2]) {
    return this.track(() => this.engine.query(sql, params, options));
  }

  transaction<T>(fn: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    return this.track(() =>
      this.engine.transaction((tx) =>
        fn({
          query: (sql, params, options) => (this.closed ? Promise.reject(closedError()) : tx.query(sql, params, options)),
        }),
      ),
    );
  }

  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    const unlisten = await this.track(() => this.engine.listen(channel, (payload) => this.closed || onMessage(payload)));
    const once = async () => {
      if (!this.unlisteners.delete(once)) return;
      await unlisten();
    };
    this.unlisteners.add(once);
    return async () => {
      if (!this.closed) await once();
    };
  }

  dumpDataDir(): Promise<Blob> {
    return this.track(() => this.engine.dumpDataDir());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.running > 0) {
      // Closed mid-call: not reused. PGlite's close waits for an open transaction, which ends (rolled back) at its
      // next statement now that every statement is refused, so the engine closes once its calls have drained,
      // without holding up this close.
      this.drained = () => void this.engine.close().catch(() => {});
      return;
    }
    for (const unlisten of [...this.unlisteners]) await unlisten();
    await giveBack(this.engine);
  }

  private async track<T>(call: () => Promise<T>): Promise<T> {
    if (this.closed) throw closedError();
    this.running++;
    try {
      return await call();
    } finally {
      if (--this.running === 0) this.drained?.();
    }
  }
}

async function emptyTables(engine: RemotePglite): Promise<void> {
  const names = await tables!;
  // Only the tables holding rows (and, by cascade, the empty ones that refer to them): a TRUNCATE of every table
  // replaces every file of every table and index.
  const { rows } = await engine.query(`select ${names.map((t, i) => `exists (select from ${t}) as "${i}"`).join(', ')}`);
  const used = names.filter((_, i) => (rows[0] as Record<string, boolean>)[String(i)]);
  if (used.length > 0) await engine.query(`truncate ${used.join(', ')} cascade`);
}

async function publicTables(engine: RemotePglite): Promise<string[]> {
  const { rows } = await engine.query(`select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public' order by 1`);
  return (rows as { name: string }[]).map((r) => r.name);
}

/**
 * A digest of everything a test could change besides rows: the catalog's user objects, settings, migrations,
 * statistics, and the sequences' values (today's tables have none; one used moves on even when its insert rolled back).
 */
async function fingerprint(engine: RemotePglite): Promise<string> {
  const { rows } = await engine.query(FINGERPRINT);
  return (rows[0] as { fp: string }).fp;
}

const USER = `not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace)`;
const FINGERPRINT = `select md5(string_agg(x, E'\\n' order by x)) as fp from (
  select concat_ws(' ', 'n', nspname) as x from pg_namespace
  union all select concat_ws(' ', 'c', relnamespace::regnamespace, relname, relkind, relnatts, relpersistence) from pg_class where relnamespace ${USER}
  union all select concat_ws(' ', 'a', attrelid::regclass, attname, format_type(atttypid, atttypmod), attnotnull, attidentity, attgenerated, pg_get_expr(adbin, adrelid))
    from pg_attribute join pg_class c on c.oid = attrelid left join pg_attrdef on adrelid = attrelid and adnum = attnum
    where c.relnamespace ${USER} and attnum > 0 and not attisdropped
  union all select concat_ws(' ', 'k', conrelid::regclass, contypid, conname, pg_get_constraintdef(oid)) from pg_constraint where connamespace ${USER}
  union all select concat_ws(' ', 'i', pg_get_indexdef(indexrelid)) from pg_index join pg_class c on c.oid = indexrelid where c.relnamespace ${USER}
  union all select concat_ws(' ', 't', tgrelid::regclass, tgname, tgenabled) from pg_trigger where not tgisinternal
  union all select concat_ws(' ', 'p', oid::regprocedure, md5(prosrc)) from pg_proc where pronamespace ${USER}
  union all select concat_ws(' ', 'y', oid::regtype) from pg_type where typnamespace ${USER}
  union all select concat_ws(' ', 'e', enumtypid::regtype, enumlabel) from pg_enum
  union all select concat_ws(' ', 'x', extname, extversion) from pg_extension
  union all select concat_ws(' ', 'v', evtname) from pg_event_trigger
  union all select concat_ws(' ', 'w', polrelid::regclass, polname) from pg_policy
  union all select concat_ws(' ', 's', setdatabase, setrole, setconfig) from pg_db_role_setting
  union all select concat_ws(' ', 'r', rolname, rolsuper) from pg_roles
  union all select concat_ws(' ', 'd', datname) from pg_database
  union all select concat_ws(' ', 'g', schemaname, sequencename, last_value) from pg_sequences
  union all select concat_ws(' ', 'l', oid) from pg_largeobject_metadata
  union all select concat_ws(' ', 'm', hash, created_at) from drizzle.__drizzle_migrations
  union all select concat_ws(' ', 'stat', starelid::regclass) from pg_statistic join pg_class c on c.oid = starelid where c.relnamespace ${USER}
) f`;

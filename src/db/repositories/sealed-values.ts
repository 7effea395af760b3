import { sql, type SQL } from 'drizzle-orm';
import { sealContexts } from '../../crypto/seal-contexts.js';
import { SEALED_BYTES_VERSION, SEALED_TEXT_PREFIX } from '../../crypto/secret-box.js';
import { selectRows, type Executor } from '../database.js';

type Row = Record<string, string>;

/** A column that holds sealed values, and how to rebuild each value's sealing context from its row. */
export interface SealedColumn {
  table: string;
  column: string;
  kind: 'text' | 'bytes';
  /** The primary key's columns (a re-seal rewrites the row it read, by these). */
  key: readonly string[];
  /** Other columns the context is made of. */
  contextColumns?: readonly string[];
  context(row: Row): string;
  /** Rows re-sealed per transaction: documents are large. */
  batch?: number;
  /** Only the rows of the table that hold sealed values. */
  where?: SQL;
}

/** The setting that keeps the lasting fingerprint subkey, sealed (src/crypto/key-check.ts). */
export const FINGERPRINT_KEY_SETTING = 'fingerprint_key';
export const fingerprintKeyContext = `system-setting:${FINGERPRINT_KEY_SETTING}`;

/**
 * Every sealed value in the database, in one table: what `keys reseal` rewrites and `keys status` counts. A new sealed
 * column is added here (test/crypto/key-rotation.test.ts fails on a column whose name says sealed and is not listed).
 */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'wallets', column: 'private_key_sealed', kind: 'text', key: ['id'], context: (r) => sealContexts.walletKey(r.id!) },
  { table: 'users', column: 'ssn_sealed', kind: 'text', key: ['id'], context: (r) => sealContexts.ssn(r.id!) },
  { table: 'associated_persons', column: 'ssn_sealed', kind: 'text', key: ['id'], context: (r) => sealContexts.ssn(r.id!) },
  { table: 'bank_accounts', column: 'number_sealed', kind: 'text', key: ['id'], context: (r) => sealContexts.bankAccountNumber(r.id!) },
  {
    table: 'documents',
    column: 'content_sealed',
    kind: 'bytes',
    key: ['id'],
    contextColumns: ['owner_type', 'owner_id'],
    context: (r) => sealContexts.document(r.owner_type!, r.owner_id!),
    batch: 20,
  },
  { table: 'mail_outbox', column: 'subject_sealed', kind: 'text', key: ['id'], context: (r) => sealContexts.mailOutbox(r.id!, 'subject') },
  { table: 'mail_outbox', column: 'body_sealed', kind: 'text', key: ['id'], context: (r) => sealContexts.mailOutbox(r.id!, 'body') },
  {
    table: 'idempotency_keys',
    column: 'response_sealed',
    kind: 'text',
    key: ['integrator_id', 'key'],
    context: (r) => sealContexts.idempotentAnswer(r.integrator_id!, r.key!),
  },
  { table: 'webhook_subscriptions', column: 'http_headers_sealed', kind: 'text', key: ['id'], context: (r) => sealContexts.webhookHeaders(r.id!) },
  { table: 'webhook_signing_keys', column: 'sealed_private_key', kind: 'text', key: ['id'], context: (r) => sealContexts.webhookSigningKey(r.id!) },
  { table: 'sandbox_otp_outbox', column: 'body', kind: 'text', key: ['id'], context: (r) => sealContexts.otpOutbox(r.id!, 'body') },
  { table: 'sandbox_otp_outbox', column: 'code', kind: 'text', key: ['id'], context: (r) => sealContexts.otpOutbox(r.id!, 'code') },
  {
    table: 'system_settings',
    column: 'value',
    kind: 'text',
    key: ['name'],
    context: () => fingerprintKeyContext,
    where: sql`name = ${FINGERPRINT_KEY_SETTING}`,
  },
];

const id = (name: string) => sql.identifier(name);
const list = (names: readonly string[]) => sql.join(names.map(id), sql`, `);

/** SQL for the id of the key that sealed the column's value (`legacy` before key ids). */
function sealedBy(c: SealedColumn): SQL {
  const col = id(c.column);
  return c.kind === 'text'
    ? sql`case when left(${col}, ${SEALED_TEXT_PREFIX.length}) = ${SEALED_TEXT_PREFIX} then substr(${col}, ${SEALED_TEXT_PREFIX.length + 1}, 16) else 'legacy' end`
    : sql`case when get_byte(${col}, 0) = ${SEALED_BYTES_VERSION} then encode(substring(${col} from 2 for 8), 'hex') else 'legacy' end`;
}

const present = (c: SealedColumn) => (c.where ? sql`${id(c.column)} is not null and ${c.where}` : sql`${id(c.column)} is not null`);

/** How many values of the column each key seals. */
export async function countSealedByKey(db: Executor, c: SealedColumn): Promise<Map<string, number>> {
  const rows = await selectRows<{ key_id: string; n: number }>(
    db,
    sql`select ${sealedBy(c)} as key_id, count(*)::int as n from ${id(c.table)} where ${present(c)} group by 1`,
  );
  return new Map(rows.map((r) => [r.key_id, Number(r.n)]));
}

/** How many values each key seals in the whole database; values sealed before key ids count for the first key. */
export async function countAllSealedByKey(db: Executor, firstKeyId: string | undefined): Promise<Map<string, number>> {
  const total = new Map<string, number>();
  for (const c of SEALED_COLUMNS) {
    for (const [keyId, n] of await countSealedByKey(db, c)) {
      const owner = keyId === 'legacy' && firstKeyId ? firstKeyId : keyId;
      total.set(owner, (total.get(owner) ?? 0) + n);
    }
  }
  return total;
}

export interface SealedRow {
  /** The row's physical address: it stays put while the row is locked, so a batch writes back by it in one statement. */
  ctid: string;
  contextRow: Row;
  sealed: string | Buffer;
}

/**
 * The next rows of the column not sealed by `keyId`, locked for the caller's transaction (rows another transaction
 * holds are skipped: the pass comes back for them). Rows past `after` in primary-key order, so a pass moves forward.
 */
export async function lockRowsNotSealedBy(tx: Executor, c: SealedColumn, keyId: string, after: string[] | undefined, limit: number): Promise<(SealedRow & { keyValues: string[] })[]> {
  const keyTuple = sql`(${list(c.key)})`;
  const past = after ? sql` and ${keyTuple} > (${sql.join(after.map((v) => sql`${v}`), sql`, `)})` : sql``;
  const columns = [...c.key, ...(c.contextColumns ?? [])];
  const rows = await selectRows<Record<string, unknown>>(
    tx,
    sql`select ctid::text as row_address, ${list(columns)}, ${id(c.column)} as sealed from ${id(c.table)}
        where ${present(c)} and ${sealedBy(c)} <> ${keyId}${past}
        order by ${list(c.key)} limit ${limit} for update skip locked`,
  );
  return rows.map((r) => {
    const contextRow: Row = {};
    for (const name of columns) contextRow[name] = String(r[name]);
    const sealed = r.sealed;
    return {
      ctid: String(r.row_address),
      keyValues: c.key.map((k) => String(r[k])),
      contextRow,
      sealed: typeof sealed === 'string' ? sealed : Buffer.from(sealed as Uint8Array),
    };
  });
}

/** Writes the batch's new values back, one statement for the batch (the rows are still locked by the caller). */
export async function writeSealedBatch(tx: Executor, c: SealedColumn, rows: readonly { ctid: string; sealed: string | Buffer }[]): Promise<void> {
  if (rows.length === 0) return;
  const type = sql.raw(c.kind === 'bytes' ? 'bytea' : 'text');
  const values = sql.join(
    rows.map((r) => sql`(${r.ctid}::tid, ${r.sealed}::${type})`),
    sql`, `,
  );
  await tx.execute(sql`update ${id(c.table)} as t set ${id(c.column)} = v.sealed from (values ${values}) as v(address, sealed) where t.ctid = v.address`);
}

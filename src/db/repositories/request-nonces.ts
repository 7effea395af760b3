import { lt, sql } from 'drizzle-orm';
import { coalesced } from '../coalescer.js';
import type { Executor } from '../database.js';
import { runShaped } from '../prepared.js';
import { textArrayLiteral } from '../array-literal.js';
import { requestNonces } from '../schema/index.js';
import { DELETE_BATCH, deleteBounded } from './bounded-delete.js';

interface Nonce {
  publicKey: string;
  messageHash: string;
  expiresAt: Date;
  now: Date;
}

/**
 * Records a batch of signed requests' hashes in one statement (coalescer.ts): whether each was new. A hash twice in one
 * batch (the same signed request sent twice at once) is sent once: the first is new, the second a replay. An expired
 * row not yet purged no longer counts as a replay: expired before the batch's earliest `now` (at most the batch's
 * milliseconds stricter than each request's own).
 */
async function insertNonces(db: Executor, nonces: Nonce[]): Promise<boolean[]> {
  const first = new Map<string, number>();
  nonces.forEach((n, i) => {
    const key = `${n.publicKey} ${n.messageHash}`;
    if (!first.has(key)) first.set(key, i);
  });
  const sent = [...first.values()].map((i) => nonces[i]!);
  const now = new Date(Math.min(...sent.map((n) => n.now.getTime())));
  const rows = await runShaped<{ public_key: string; message_hash: string }>(
    db,
    'remember nonces',
    () => sql`
      insert into request_nonces (public_key, message_hash, expires_at)
      select * from unnest(${sql.placeholder('keys')}::text[], ${sql.placeholder('hashes')}::text[], ${sql.placeholder('expires')}::timestamptz[])
      on conflict (public_key, message_hash) do update set expires_at = excluded.expires_at where request_nonces.expires_at < ${sql.placeholder('now')}::timestamptz
      returning public_key, message_hash`,
    {
      keys: textArrayLiteral(sent.map((n) => n.publicKey)),
      hashes: textArrayLiteral(sent.map((n) => n.messageHash)),
      expires: textArrayLiteral(sent.map((n) => n.expiresAt.toISOString())),
      now: now.toISOString(),
    },
  );
  const remembered = new Set(rows.map((r) => `${r.public_key} ${r.message_hash}`));
  return nonces.map((n, i) => {
    const key = `${n.publicKey} ${n.messageHash}`;
    return first.get(key) === i && remembered.has(key);
  });
}

const rememberCoalesced = coalesced(insertNonces);

/**
 * Records a signed request's hash; false when the same key already sent the same message. Every signed request runs
 * it: concurrent requests' hashes go in one statement.
 */
export function rememberNonce(db: Executor, publicKey: string, messageHash: string, expiresAt: Date, now: Date): Promise<boolean> {
  return rememberCoalesced(db, { publicKey, messageHash, expiresAt, now });
}

/** Deletes up to `limit` hashes that expired before `now`; returns how many (the maintenance round repeats it). */
export function purgeExpiredNonces(db: Executor, now: Date, limit = DELETE_BATCH): Promise<number> {
  return deleteBounded(db, requestNonces, lt(requestNonces.expiresAt, now), limit, requestNonces.expiresAt);
}

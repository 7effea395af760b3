/**
 * SQLSTATEs of a transaction PostgreSQL ended because another one held what it needed: a deadlock it broke
 * (40P01), a serialization failure (40001), or a lock it could not get (55P03). Nothing of the transaction was
 * kept, so the same request may simply be made again.
 */
const TRANSIENT = new Set(['40P01', '40001', '55P03']);

/** True when the error (or one of its causes: drizzle wraps the driver's error) is such a conflict. */
export function isTransientConflict(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && TRANSIENT.has(code)) return true;
  }
  return false;
}

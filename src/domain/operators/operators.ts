import { createHash, randomBytes } from 'node:crypto';
import type { Database, Executor } from '../../db/database.js';
import { findOperatorByTokenHash, insertOperator, listOperators as listOperatorRows } from '../../db/repositories/operators.js';
import { newId } from '../ids.js';

const TOKEN_PREFIX = 'op_';

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface OperatorView {
  operatorId: string;
  name: string;
  active: boolean;
  createdAt: string;
}

/** Creates an operator and returns its bearer token once; only the token's hash is stored. */
export async function createOperator(db: Database, name: string, now: Date): Promise<OperatorView & { token: string }> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await insertOperator(db.db, { id: newId(), name, tokenHash: hashToken(token), active: true, createdAt: now });
  return { operatorId: row.id, name: row.name, active: row.active, createdAt: row.createdAt.toISOString(), token };
}

export async function listOperators(db: Database): Promise<OperatorView[]> {
  return (await listOperatorRows(db.db)).map((r) => ({ operatorId: r.id, name: r.name, active: r.active, createdAt: r.createdAt.toISOString() }));
}

/**
 * The active operator holding this token, or undefined. Looked up by the token's SHA-256: comparing hashes of
 * a 256-bit random secret leaks nothing useful through timing.
 */
export async function operatorForToken(db: Executor, token: string): Promise<{ operatorId: string; name: string } | undefined> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return undefined;
  const row = await findOperatorByTokenHash(db, hashToken(token));
  return row && row.active ? { operatorId: row.id, name: row.name } : undefined;
}

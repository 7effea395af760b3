import { createHash, randomBytes } from 'node:crypto';
import type { Database, Executor } from '../../db/database.js';
import { findOperatorByTokenHash, insertOperator, listOperators as listOperatorRows, setOperatorRole } from '../../db/repositories/operators.js';
import type { OperatorRef, OperatorRole } from '../cases/permissions.js';
import { newId } from '../ids.js';

const TOKEN_PREFIX = 'op_';

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface OperatorView {
  operatorId: string;
  name: string;
  role: OperatorRole;
  active: boolean;
  createdAt: string;
}

const view = (r: { id: string; name: string; role: OperatorRole; active: boolean; createdAt: Date }): OperatorView => ({
  operatorId: r.id,
  name: r.name,
  role: r.role,
  active: r.active,
  createdAt: r.createdAt.toISOString(),
});

/** Creates an operator and returns its bearer token once; only the token's hash is stored. */
export async function createOperator(db: Database, name: string, now: Date, role: OperatorRole = 'reviewer'): Promise<OperatorView & { token: string }> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await insertOperator(db.db, { id: newId(), name, role, tokenHash: hashToken(token), active: true, createdAt: now });
  return { ...view(row), token };
}

export async function listOperators(db: Database): Promise<OperatorView[]> {
  return (await listOperatorRows(db.db)).map(view);
}

/** Sets the role of the active operator named `name` (the admin CLI); undefined when there is none. */
export async function setRole(db: Database, name: string, role: OperatorRole): Promise<OperatorView | undefined> {
  const row = await setOperatorRole(db.db, name, role);
  return row ? view(row) : undefined;
}

/** Names of operators by id, for views of who did what (the table is small: read whole). */
export async function operatorNames(db: Executor): Promise<Map<string, string>> {
  return new Map((await listOperatorRows(db)).map((r) => [r.id, r.name]));
}

/**
 * The active operator holding this token, or undefined. Looked up by the token's SHA-256: comparing hashes of
 * a 256-bit random secret leaks nothing useful through timing.
 */
export async function operatorForToken(db: Executor, token: string): Promise<OperatorRef | undefined> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return undefined;
  const row = await findOperatorByTokenHash(db, hashToken(token));
  return row && row.active ? { operatorId: row.id, name: row.name, role: row.role } : undefined;
}

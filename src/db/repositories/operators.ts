import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { operators } from '../schema/index.js';

export type OperatorRow = typeof operators.$inferSelect;

export async function insertOperator(db: Executor, row: typeof operators.$inferInsert): Promise<OperatorRow> {
  const [created] = await db.insert(operators).values(row).returning();
  return created!;
}

export async function findOperatorByTokenHash(db: Executor, tokenHash: string): Promise<OperatorRow | undefined> {
  const [row] = await db.select().from(operators).where(eq(operators.tokenHash, tokenHash));
  return row;
}

export function listOperators(db: Executor): Promise<OperatorRow[]> {
  return db.select().from(operators).orderBy(asc(operators.id));
}

export async function setOperatorRole(db: Executor, name: string, role: OperatorRow['role']): Promise<OperatorRow | undefined> {
  const [row] = await db.update(operators).set({ role }).where(and(eq(operators.name, name), eq(operators.active, true))).returning();
  return row;
}

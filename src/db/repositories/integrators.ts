import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { integrators } from '../schema/index.js';

export type IntegratorRow = typeof integrators.$inferSelect;

export async function insertIntegrator(db: Executor, row: typeof integrators.$inferInsert): Promise<IntegratorRow> {
  const [created] = await db.insert(integrators).values(row).returning();
  return created!;
}

/** The integrator's name, for operators' views. */
export async function findIntegratorName(db: Executor, id: string): Promise<string | undefined> {
  const [row] = await db.select({ name: integrators.name }).from(integrators).where(eq(integrators.id, id));
  return row?.name;
}

export function listIntegrators(db: Executor): Promise<IntegratorRow[]> {
  return db.select().from(integrators).orderBy(asc(integrators.id));
}

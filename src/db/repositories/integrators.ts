import { asc } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { integrators } from '../schema/index.js';

export type IntegratorRow = typeof integrators.$inferSelect;

export async function insertIntegrator(db: Executor, row: typeof integrators.$inferInsert): Promise<IntegratorRow> {
  const [created] = await db.insert(integrators).values(row).returning();
  return created!;
}

export function listIntegrators(db: Executor): Promise<IntegratorRow[]> {
  return db.select().from(integrators).orderBy(asc(integrators.id));
}

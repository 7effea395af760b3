import { eq, sql } from 'drizzle-orm';
import { selectRows, type Executor } from '../database.js';
import { systemSettings } from '../schema/index.js';

/** The setting's value, locked for the rest of the transaction (inserted as `initial` when there was none). */
export async function lockSetting(db: Executor, name: string, initial: string, now: Date): Promise<string> {
  await db.insert(systemSettings).values({ name, value: initial, createdAt: now }).onConflictDoNothing();
  const [row] = await db.select({ value: systemSettings.value }).from(systemSettings).where(eq(systemSettings.name, name)).for('update');
  return row!.value;
}

export async function writeSetting(db: Executor, name: string, value: string): Promise<void> {
  await db.update(systemSettings).set({ value }).where(eq(systemSettings.name, name));
}

export type CustomerTable = 'user' | 'associated_person' | 'entity';

export interface CustomerRow {
  id: string;
  integrator_id: string;
  verification_status: string;
  info: Record<string, unknown>;
}

const SELECT: Record<CustomerTable, ReturnType<typeof sql>> = {
  user: sql`select id, integrator_id, verification_status, user_info as info from users`,
  associated_person: sql`select id, integrator_id, verification_status, user_info as info from associated_persons where removed_at is null`,
  entity: sql`select id, integrator_id, verification_status, entity_info as info from entities`,
};

/** The next `limit` customers of one kind after `after`, by id (a keyset: bounded however many there are). */
export function customersAfter(db: Executor, table: CustomerTable, after: string | null, limit: number): Promise<CustomerRow[]> {
  const where = after ? sql`${table === 'associated_person' ? sql`and` : sql`where`} id > ${after}::uuid` : sql``;
  return selectRows<CustomerRow>(db, sql`${SELECT[table]} ${where} order by id limit ${limit}`);
}

import { eq } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { systemSettings } from '../schema/index.js';

/** The setting's value; the first writer's when several processes set it at once (the others' are ignored). */
export async function settingOrInsert(db: Executor, name: string, value: string, now: Date): Promise<string> {
  await db.insert(systemSettings).values({ name, value, createdAt: now }).onConflictDoNothing();
  const [row] = await db.select({ value: systemSettings.value }).from(systemSettings).where(eq(systemSettings.name, name));
  return row!.value;
}

export async function readSetting(db: Executor, name: string): Promise<string | undefined> {
  const [row] = await db.select({ value: systemSettings.value }).from(systemSettings).where(eq(systemSettings.name, name));
  return row?.value;
}

export async function writeSetting(db: Executor, name: string, value: string, now: Date): Promise<void> {
  await db.insert(systemSettings).values({ name, value, createdAt: now }).onConflictDoUpdate({ target: systemSettings.name, set: { value } });
}

import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../src/db/database.js';
import { events } from '../../src/db/schema/index.js';

/** Reads events straight from the database, to assert that a change and its event were written together. */
export function eventsFor(database: Database, objectId: string) {
  return database.db.select().from(events).where(eq(events.objectId, objectId)).orderBy(asc(events.sequence));
}

export function eventsOfType(database: Database, integratorId: string, type: string) {
  return database.db
    .select()
    .from(events)
    .where(and(eq(events.integratorId, integratorId), eq(events.type, type)))
    .orderBy(asc(events.id));
}

import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { preparedStatement } from '../prepared.js';
import { associatedPersons, documents, entities } from '../schema/index.js';
import { documentMetaColumns, type DocumentMeta } from './documents.js';

export type EntityRow = typeof entities.$inferSelect;
export type PersonRow = typeof associatedPersons.$inferSelect;

export async function insertEntity(db: Executor, row: typeof entities.$inferInsert): Promise<EntityRow> {
  const [created] = await db.insert(entities).values(row).returning();
  return created!;
}

export async function findEntity(db: Executor, integratorId: string, id: string, options: { lock?: boolean } = {}): Promise<EntityRow | undefined> {
  const query = db
    .select()
    .from(entities)
    .where(and(eq(entities.integratorId, integratorId), eq(entities.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function updateEntity(db: Executor, id: string, patch: Partial<typeof entities.$inferInsert>): Promise<EntityRow> {
  const [row] = await db.update(entities).set(patch).where(eq(entities.id, id)).returning();
  return row!;
}

export async function insertPerson(db: Executor, row: typeof associatedPersons.$inferInsert): Promise<PersonRow> {
  const [created] = await db.insert(associatedPersons).values(row).returning();
  return created!;
}

/** A person that was removed, or belongs to another integrator, is absent. */
export async function findPerson(db: Executor, integratorId: string, id: string, options: { lock?: boolean } = {}): Promise<PersonRow | undefined> {
  const query = db
    .select()
    .from(associatedPersons)
    .where(and(eq(associatedPersons.integratorId, integratorId), eq(associatedPersons.id, id), isNull(associatedPersons.removedAt)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export function listPersons(db: Executor, entityId: string): Promise<PersonRow[]> {
  return db
    .select()
    .from(associatedPersons)
    .where(and(eq(associatedPersons.entityId, entityId), isNull(associatedPersons.removedAt)))
    .orderBy(asc(associatedPersons.id));
}

export async function updatePerson(db: Executor, id: string, patch: Partial<typeof associatedPersons.$inferInsert>): Promise<PersonRow> {
  const [row] = await db.update(associatedPersons).set(patch).where(eq(associatedPersons.id, id)).returning();
  return row!;
}

const personWithDocuments = preparedStatement('person_with_documents', (db) =>
  db
    .select({ person: associatedPersons, document: documentMetaColumns })
    .from(associatedPersons)
    .leftJoin(documents, and(eq(documents.ownerType, 'associated_person'), eq(documents.ownerId, associatedPersons.id)))
    .where(
      and(
        eq(associatedPersons.integratorId, sql.placeholder('integratorId')),
        eq(associatedPersons.id, sql.placeholder('id')),
        isNull(associatedPersons.removedAt),
      ),
    )
    .orderBy(asc(documents.id)),
);

/**
 * The hot read of get-associated-person-details: person and document metadata in one prepared statement.
 * Building the SQL per call and a second round trip cost more than the query itself (docs/benchmarks.md).
 */
export async function findPersonWithDocuments(db: Executor, integratorId: string, id: string): Promise<{ person: PersonRow; documents: DocumentMeta[] } | undefined> {
  const rows = await personWithDocuments(db, { integratorId, id });
  const first = rows[0];
  if (!first) return undefined;
  return { person: first.person, documents: rows.flatMap((r) => (r.document ? [r.document] : [])) };
}

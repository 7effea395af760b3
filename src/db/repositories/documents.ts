import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { documents } from '../schema/index.js';

export type DocumentRow = typeof documents.$inferSelect;
export type DocumentOwnerType = DocumentRow['ownerType'];
/** Everything but the (large) sealed bytes: what listing and views need. */
export type DocumentMeta = Omit<DocumentRow, 'contentSealed'>;

/**
 * Inserts unless the owner already has this submission (documents_owner_submission_key: the same bytes, type,
 * country, number and description; then the existing document stands); the inserted row's metadata, undefined when
 * it stood.
 */
export async function insertDocument(db: Executor, row: typeof documents.$inferInsert): Promise<DocumentMeta | undefined> {
  // No conflict target: the key has expressions (schema/documents.ts), and the id is new, so it is the only conflict.
  const [inserted] = await db.insert(documents).values(row).onConflictDoNothing().returning(documentMetaColumns);
  return inserted;
}

/** One document with its sealed bytes, whoever owns it (operators read across integrators). */
export async function findDocument(db: Executor, id: string): Promise<DocumentRow | undefined> {
  const [row] = await db.select().from(documents).where(eq(documents.id, id));
  return row;
}

/** The metadata columns: never `content_sealed`, which can be megabytes. */
export const documentMetaColumns = {
  id: documents.id,
  integratorId: documents.integratorId,
  ownerType: documents.ownerType,
  ownerId: documents.ownerId,
  documentType: documents.documentType,
  issuingCountry: documents.issuingCountry,
  documentNumber: documents.documentNumber,
  description: documents.description,
  mediaType: documents.mediaType,
  sizeBytes: documents.sizeBytes,
  sha256: documents.sha256,
  warnings: documents.warnings,
  errors: documents.errors,
  createdAt: documents.createdAt,
};

export function listDocuments(db: Executor, ownerType: DocumentOwnerType, ownerId: string): Promise<DocumentMeta[]> {
  return db
    .select(documentMetaColumns)
    .from(documents)
    .where(and(eq(documents.ownerType, ownerType), eq(documents.ownerId, ownerId)))
    .orderBy(asc(documents.id));
}

/** The documents of several owners of one type (an entity's persons), in one query. */
export function listDocumentsOfOwners(db: Executor, ownerType: DocumentOwnerType, ownerIds: readonly string[]): Promise<DocumentMeta[]> {
  if (ownerIds.length === 0) return Promise.resolve([]);
  return db
    .select(documentMetaColumns)
    .from(documents)
    .where(and(eq(documents.ownerType, ownerType), inArray(documents.ownerId, [...ownerIds])))
    .orderBy(asc(documents.id));
}

/** Marks one document of an owner as to be redone (its `errors`); false when the owner has no such document. */
export async function setDocumentErrors(db: Executor, ownerType: DocumentOwnerType, ownerId: string, documentId: string, errors: string[]): Promise<boolean> {
  const rows = await db
    .update(documents)
    .set({ errors })
    .where(and(eq(documents.ownerType, ownerType), eq(documents.ownerId, ownerId), eq(documents.id, documentId)))
    .returning({ id: documents.id });
  return rows.length === 1;
}

import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../database.js';
import { associatedPersons, documents, users, verificationFindings } from '../schema/index.js';

export type FindingRow = typeof verificationFindings.$inferSelect;

export function listFindings(db: Executor, subjectId: string): Promise<FindingRow[]> {
  return db.select().from(verificationFindings).where(eq(verificationFindings.subjectId, subjectId));
}

export async function replaceFindings(db: Executor, subjectId: string, rows: (typeof verificationFindings.$inferInsert)[]): Promise<void> {
  await db.delete(verificationFindings).where(eq(verificationFindings.subjectId, subjectId));
  if (rows.length > 0) await db.insert(verificationFindings).values(rows);
}

/** Replaces the subject's watch-list findings (those naming a hit) and leaves the others. */
export async function replaceHitFindings(db: Executor, subjectId: string, rows: (typeof verificationFindings.$inferInsert)[]): Promise<void> {
  await db.delete(verificationFindings).where(and(eq(verificationFindings.subjectId, subjectId), isNotNull(verificationFindings.hitId)));
  if (rows.length > 0) await db.insert(verificationFindings).values(rows);
}

/** Documents of other owners of the same integrator with the same bytes. */
export function sameBytesElsewhere(db: Executor, integratorId: string, ownerId: string, sha256: string) {
  return db
    .select({ id: documents.id, ownerType: documents.ownerType, ownerId: documents.ownerId })
    .from(documents)
    .where(and(eq(documents.integratorId, integratorId), eq(documents.sha256, sha256), ne(documents.ownerId, ownerId)));
}

/** Documents of other owners of the same integrator with the same type, country and number. */
export function sameNumberElsewhere(db: Executor, integratorId: string, ownerId: string, doc: { documentType: string; issuingCountry: string; documentNumber: string }) {
  return db
    .select({ id: documents.id, ownerType: documents.ownerType, ownerId: documents.ownerId })
    .from(documents)
    .where(
      and(
        eq(documents.integratorId, integratorId),
        eq(documents.documentType, doc.documentType),
        eq(documents.issuingCountry, doc.issuingCountry),
        sql`lower(${documents.documentNumber}) = lower(${doc.documentNumber})`,
        ne(documents.ownerId, ownerId),
      ),
    );
}

/** The other users and persons of the integrator with the same SSN (compared by keyed fingerprint), users first. */
export async function sameSsnElsewhere(db: Executor, integratorId: string, subjectId: string, fingerprint: string): Promise<{ subjectType: 'user' | 'associated_person'; subjectId: string }[]> {
  const u = await db.select({ id: users.id }).from(users).where(and(eq(users.integratorId, integratorId), eq(users.ssnFingerprint, fingerprint), ne(users.id, subjectId)));
  const p = await db
    .select({ id: associatedPersons.id })
    .from(associatedPersons)
    .where(and(eq(associatedPersons.integratorId, integratorId), eq(associatedPersons.ssnFingerprint, fingerprint), ne(associatedPersons.id, subjectId)));
  return [...u.map((r) => ({ subjectType: 'user' as const, subjectId: r.id })), ...p.map((r) => ({ subjectType: 'associated_person' as const, subjectId: r.id }))];
}

export async function setDocumentFindings(db: Executor, documentId: string, warnings: string[] | null, errors: string[] | null): Promise<void> {
  await db.update(documents).set({ warnings, errors }).where(eq(documents.id, documentId));
}

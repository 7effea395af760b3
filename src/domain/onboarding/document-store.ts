import { createHash } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Executor } from '../../db/database.js';
import { insertDocument, type DocumentMeta, type DocumentOwnerType } from '../../db/repositories/documents.js';
import type { FieldError } from '../errors.js';
import { newId } from '../ids.js';
import { parseDocumentDataUrl } from './documents/data-url.js';
import type { DocumentView, SubmittedDocument } from './types.js';
import { sealContexts } from '../../crypto/seal-contexts.js';

export interface PreparedDocument {
  documentType: string;
  issuingCountry: string;
  documentNumber: string | null;
  description: string | null;
  mediaType: string;
  bytes: Buffer;
  sha256: string;
}

/**
 * What makes a submitted document the one it is, for an owner (the unique key of migration 0030): its bytes, type,
 * country, number and description. The same again is a retry; the same bytes with any of the rest different (a
 * certificate that is also the trust agreement) are another document.
 */
function submissionKey(doc: Pick<PreparedDocument, 'sha256' | 'documentType' | 'issuingCountry' | 'documentNumber' | 'description'>): string {
  return JSON.stringify([doc.sha256, doc.documentType, doc.issuingCountry, doc.documentNumber ?? '', doc.description ?? '']);
}

/**
 * Parses and checks submitted documents without writing anything, so a request with one bad document writes
 * nothing at all. The same submission twice in one request counts once (submissionKey).
 */
export function prepareDocuments(submitted: readonly SubmittedDocument[] | null | undefined, pointer: string): { prepared: PreparedDocument[]; errors: FieldError[] } {
  const prepared: PreparedDocument[] = [];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  // Defensive: also called on bodies the schema refused (to report every bad field at once).
  (Array.isArray(submitted) ? submitted : []).forEach((doc: SubmittedDocument, i) => {
    if (!doc || typeof doc !== 'object') return;
    const parsed = parseDocumentDataUrl(doc.document, `${pointer}/${i}/document`);
    if (!parsed.ok) {
      errors.push(...parsed.errors);
      return;
    }
    const document: PreparedDocument = {
      // The request schemas require documentType for every owner kind.
      documentType: doc.documentType ?? 'other',
      issuingCountry: doc.issuingCountry,
      documentNumber: doc.documentNumber ?? null,
      description: doc.description ?? null,
      mediaType: parsed.mediaType,
      bytes: parsed.bytes,
      sha256: createHash('sha256').update(parsed.bytes).digest('hex'),
    };
    const key = submissionKey(document);
    if (seen.has(key)) return;
    seen.add(key);
    prepared.push(document);
  });
  return { prepared, errors };
}

/**
 * Seals and stores prepared documents for an owner, each under the type it was submitted as; a submission the owner
 * already has (the same bytes, type, country, number and description: a retry) is not stored again. Answers the
 * metadata of those stored now (for a new owner: all its documents).
 */
export async function storeDocuments(
  tx: Executor,
  secrets: SecretBox,
  owner: { integratorId: string; type: DocumentOwnerType; id: string },
  prepared: readonly PreparedDocument[],
  now: Date,
): Promise<DocumentMeta[]> {
  const stored: DocumentMeta[] = [];
  // The same bytes under two types are sealed once: the context is the owner's, not the row's.
  const sealed = new Map<string, Buffer>();
  for (const doc of prepared) {
    const contentSealed = sealed.get(doc.sha256) ?? secrets.sealBytes(doc.bytes, sealContexts.document(owner.type, owner.id));
    sealed.set(doc.sha256, contentSealed);
    const id = newId();
    const inserted = await insertDocument(tx, {
      id,
      integratorId: owner.integratorId,
      ownerType: owner.type,
      ownerId: owner.id,
      documentType: doc.documentType,
      issuingCountry: doc.issuingCountry,
      documentNumber: doc.documentNumber,
      description: doc.description,
      mediaType: doc.mediaType,
      sizeBytes: doc.bytes.length,
      sha256: doc.sha256,
      // Bound to the owner: sealed bytes copied to another owner's row do not open.
      contentSealed,
      createdAt: now,
    });
    if (inserted) stored.push(inserted);
  }
  return stored;
}

export function toDocumentView(row: DocumentMeta): DocumentView {
  return {
    // Stored only after validation against the spec's lists.
    documentType: row.documentType as DocumentView['documentType'],
    documentNumber: row.documentNumber,
    description: row.description,
    issuingCountry: row.issuingCountry,
    documentId: row.id,
    warnings: row.warnings ?? null,
    errors: row.errors ?? null,
  };
}

/**
 * The types a record's requirements can count on: a document carrying `errors` (from a review asking for it to
 * be redone, or from the automated checks) no longer satisfies anything until a replacement arrives.
 */
export function usableDocumentTypes(documents: readonly Pick<DocumentMeta, 'documentType' | 'errors'>[]): string[] {
  return documents.filter((d) => !d.errors || d.errors.length === 0).map((d) => d.documentType);
}

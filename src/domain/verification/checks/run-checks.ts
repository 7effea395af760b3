import type { Executor } from '../../../db/database.js';
import { listDocuments, type DocumentOwnerType } from '../../../db/repositories/documents.js';
import { findEntity, findPerson } from '../../../db/repositories/entities.js';
import { listFindings, replaceFindings, sameBytesElsewhere, sameNumberElsewhere, sameSsnElsewhere, setDocumentFindings } from '../../../db/repositories/findings.js';
import { findUser } from '../../../db/repositories/users.js';
import type { VerificationStatus } from '../../../db/schema/index.js';
import type { Policy } from '../../context.js';
import { newId } from '../../ids.js';
import type { EntityInfo, UserInfo } from '../../onboarding/types.js';
import type { SubjectRef } from '../apply-transition.js';

interface Finding {
  documentId: string | null;
  severity: 'warning' | 'error';
  code: string;
  message: string;
}

const OWNER: Record<SubjectRef['type'], DocumentOwnerType> = { user: 'user', associated_person: 'associated_person', entity: 'entity' };

async function recordOf(tx: Executor, subject: SubjectRef): Promise<{ name: string; birthDate: string | null; userInfo?: UserInfo; ssnFingerprint: string | null }> {
  if (subject.type === 'entity') {
    const entity = (await findEntity(tx, subject.integratorId, subject.id))!;
    return { name: (entity.entityInfo as EntityInfo).businessLegalName ?? '', birthDate: null, ssnFingerprint: null };
  }
  const row = subject.type === 'user' ? await findUser(tx, subject.integratorId, subject.id) : await findPerson(tx, subject.integratorId, subject.id);
  const info = row!.userInfo as UserInfo;
  return { name: [info.firstName, info.middleName, info.lastName].filter(Boolean).join(' '), birthDate: info.birthDate ?? null, userInfo: info, ssnFingerprint: row!.ssnFingerprint };
}

/**
 * The automated checks, run when a record enters review: documents shared with or numbered like another person's
 * of the same integrator, a shared SSN, document countries that disagree with the person's data, and name
 * screening. Findings replace the previous run's; on documents they become `warnings` / `errors` (an error set by
 * an operator stays).
 */
export async function runChecks(tx: Executor, subject: SubjectRef, policy: Policy, at: Date): Promise<void> {
  const record = await recordOf(tx, subject);
  const docs = await listDocuments(tx, OWNER[subject.type], subject.id);
  const findings: Finding[] = [];
  for (const doc of docs) {
    if ((await sameBytesElsewhere(tx, subject.integratorId, subject.id, doc.sha256)).length > 0) {
      findings.push({ documentId: doc.id, severity: 'error', code: 'duplicate_document', message: 'The same file was submitted for another person or company' });
    }
    if (doc.documentNumber && (await sameNumberElsewhere(tx, subject.integratorId, subject.id, { ...doc, documentNumber: doc.documentNumber })).length > 0) {
      findings.push({ documentId: doc.id, severity: 'error', code: 'document_number_reused', message: 'This document number is already used by another person' });
    }
    const info = record.userInfo;
    if (info?.nationality && ['passport', 'national_id_front', 'national_id_back'].includes(doc.documentType) && doc.issuingCountry !== info.nationality) {
      findings.push({ documentId: doc.id, severity: 'warning', code: 'nationality_mismatch', message: `Issued by ${doc.issuingCountry}, but the nationality is ${info.nationality}` });
    }
    if (info?.residentialAddress && doc.documentType === 'proof_of_address' && doc.issuingCountry !== info.residentialAddress.country) {
      findings.push({ documentId: doc.id, severity: 'warning', code: 'address_country_mismatch', message: `Issued by ${doc.issuingCountry}, but the residence is in ${info.residentialAddress.country}` });
    }
  }
  if (record.ssnFingerprint && (await sameSsnElsewhere(tx, subject.integratorId, subject.id, record.ssnFingerprint)) > 0) {
    findings.push({ documentId: null, severity: 'error', code: 'ssn_shared', message: 'Another person of this integrator has the same SSN' });
  }
  const hit = record.name ? policy.watchList?.screen(record.name, record.birthDate) : undefined;
  if (hit) {
    findings.push({
      documentId: null,
      severity: hit.kind === 'match' ? 'error' : 'warning',
      code: hit.kind === 'match' ? 'watchlist_match' : 'possible_watchlist_match',
      message: `${hit.kind === 'match' ? 'Matches' : 'Name matches'} "${hit.entry.name}" on ${hit.entry.list}`,
    });
  }

  const previous = await listFindings(tx, subject.id);
  await replaceFindings(
    tx,
    subject.id,
    findings.map((f) => ({ id: newId(), integratorId: subject.integratorId, subjectType: subject.type, subjectId: subject.id, ...f, createdAt: at })),
  );
  for (const doc of docs) {
    const previousCheckErrors = new Set(previous.filter((f) => f.documentId === doc.id && f.severity === 'error').map((f) => f.message));
    const mine = findings.filter((f) => f.documentId === doc.id);
    const errors = [...(doc.errors ?? []).filter((e) => !previousCheckErrors.has(e)), ...mine.filter((f) => f.severity === 'error').map((f) => f.message)];
    const warnings = mine.filter((f) => f.severity === 'warning').map((f) => f.message);
    await setDocumentFindings(tx, doc.id, warnings.length > 0 ? warnings : null, errors.length > 0 ? errors : null);
  }
}

/** Runs the checks when an operation moved the record into review; true when they ran (they may have written findings on documents). */
export async function checkIfEnteredReview(tx: Executor, subject: SubjectRef, before: VerificationStatus, policy: Policy, at: Date): Promise<boolean> {
  if (subject.status !== 'under_review' || before === 'under_review') return false;
  await runChecks(tx, subject, policy, at);
  return true;
}

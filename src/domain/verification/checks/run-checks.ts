import type { Executor } from '../../../db/database.js';
import { listDocuments, type DocumentOwnerType } from '../../../db/repositories/documents.js';
import { findEntity, findPerson } from '../../../db/repositories/entities.js';
import { listFindings, replaceFindings, replaceHitFindings, sameBytesElsewhere, sameNumberElsewhere, sameSsnElsewhere, setDocumentFindings } from '../../../db/repositories/findings.js';
import { findUser } from '../../../db/repositories/users.js';
import type { VerificationStatus } from '../../../db/schema/index.js';
import type { Policy } from '../../context.js';
import { newId } from '../../ids.js';
import type { EntityInfo, UserInfo } from '../../onboarding/types.js';
import type { ScreeningHit, ScreeningSubject } from '../../screening/types.js';
import type { SubjectRef } from '../apply-transition.js';
import { screenAndRecord } from '../../screening/subject-hits.js';
import type { ScreeningHitRow } from '../../../db/repositories/screening-hits.js';
import { openCaseOn } from '../../cases/open-case.js';
import { entitySubject, personSubject } from '../../screening/customer-subject.js';
import { otherPeople, type RecordRef } from './same-person.js';
import { hitKind } from './watch-list.js';

interface Finding {
  documentId: string | null;
  severity: 'warning' | 'error';
  code: string;
  message: string;
  hitId?: string;
  related?: { subjectType: SubjectRef['type']; subjectId: string } | null;
}

const OWNER: Record<SubjectRef['type'], DocumentOwnerType> = { user: 'user', associated_person: 'associated_person', entity: 'entity' };

interface CheckedRecord {
  /** The name shown and the names screened: a person's full name; a company's legal and trade names. */
  name: string;
  subject: ScreeningSubject;
  userInfo?: UserInfo;
  ssnFingerprint: string | null;
}

async function recordOf(tx: Executor, subject: SubjectRef): Promise<CheckedRecord> {
  if (subject.type === 'entity') {
    const entity = (await findEntity(tx, subject.integratorId, subject.id))!;
    const info = entity.entityInfo as EntityInfo;
    return { name: info.businessLegalName ?? '', subject: entitySubject(info), ssnFingerprint: null };
  }
  const row = subject.type === 'user' ? await findUser(tx, subject.integratorId, subject.id) : await findPerson(tx, subject.integratorId, subject.id);
  const info = row!.userInfo as UserInfo;
  const subjectData = personSubject(info);
  return {
    name: subjectData.names[0] ?? '',
    subject: subjectData,
    userInfo: info,
    ssnFingerprint: row!.ssnFingerprint,
  };
}

const FIELD_WORDS: Record<string, string> = { birthDate: 'birth date', country: 'country' };

/** OFAC's alias types, as ALT.CSV writes them (`aka`) or spelt with dots (`a.k.a.`). */
const KNOWN_AS = /^([afn])\.?\s*k\.?\s*a\.?$/i;

/**
 * How an alias's type reads in a finding's message, before `of "<listed name>"`, whichever list gave it: OFAC's and
 * the EU's `a.k.a.` (`f.k.a.`, `n.k.a.`; ALT.CSV's `aka` dotted), the UN's alias QUALITY `Good` or `Low` (`alias, low
 * quality,`), its NAME_ORIGINAL_SCRIPT (`original script`), the UK's name type with its alias strength (`Alias (Low
 * quality)`: `alias, low quality,`; `Primary Name Variation`: `name variation`) and its `non-Latin script`. A type
 * none of them writes is kept as given, lower case, its parenthesis set off by commas.
 */
export function aliasRelation(aliasType: string | undefined): string {
  const type = (aliasType ?? '').trim().replace(/\s+/g, ' ');
  const knownAs = KNOWN_AS.exec(type);
  if (knownAs) return `${knownAs[1]!.toLowerCase()}.k.a.`;
  if (/^(good|low)$/i.test(type)) return `alias, ${type.toLowerCase()} quality,`;
  // `Alias (Low quality)`: the kind of name, then its strength in parentheses.
  const [, kind = type, strength = ''] = /^(.*?)\s*\((.*)\)$/.exec(type) ?? [];
  const lower = (text: string) => text.trim().toLowerCase().replace(/\blatin\b/g, 'Latin');
  const base = lower(kind) === '' ? 'alias' : lower(kind) === 'primary name variation' ? 'name variation' : lower(kind);
  const quality = lower(strength).replace(/^(good|low)$/, '$1 quality');
  return quality ? `${base}, ${quality},` : base;
}

/**
 * A hit as an operator reads it in the case: the listed name (and the alias that matched), list, entry, programs,
 * score, and what agreed or differed, e.g. `Matches "SIDOROV, Ivan Petrovich" on OFAC-SDN entry 90001 (CYBER2):
 * score 1; name and birth date agree, country differs`.
 */
export function hitMessage(hit: ScreeningHit): string {
  const listed = hit.matchedAlias ? `"${hit.matchedAlias.name}" (${aliasRelation(hit.matchedAlias.aliasType)} of "${hit.listedName}")` : `"${hit.listedName}"`;
  const programs = hit.programs.length > 0 ? ` (${hit.programs.join(', ')})` : '';
  const agreed = ['name', ...hit.agreed.filter((f) => f !== 'name').map((f) => FIELD_WORDS[f])].join(' and ');
  const differs = hit.conflicting.length > 0 ? `, ${hit.conflicting.map((f) => FIELD_WORDS[f]).join(' and ')} differ${hit.conflicting.length === 1 ? 's' : ''}` : '';
  return `${hitKind(hit) === 'match' ? 'Matches' : 'Name matches'} ${listed} on ${hit.list} entry ${hit.entryNumber}${programs}: score ${hit.score}; ${agreed} agree${hit.agreed.length === 1 ? 's' : ''}${differs}`;
}

const relatedOf = (doc: { ownerType: DocumentOwnerType; ownerId: string }) => ({ subjectType: doc.ownerType, subjectId: doc.ownerId });

/**
 * The subject's screening hits (recorded with their details, docs/back-office.md#hits) as findings: each hit that
 * matches now and is not a false positive; `watchlist_match` (an error) when the birth dates agree too.
 */
async function screeningFindings(tx: Executor, subject: SubjectRef, screened: ScreeningSubject, policy: Policy, at: Date): Promise<Finding[]> {
  const { current } = await screenAndRecord(tx, { type: subject.type, id: subject.id, integratorId: subject.integratorId }, screened, policy.screening, at);
  return hitFindings(current);
}

/** The findings of the hits that match now and are not false positives, best first. */
function hitFindings(current: ScreeningHitRow[]): Finding[] {
  return current
    .filter((row) => row.status === 'open' || row.status === 'true_match')
    .sort((a, b) => b.score - a.score)
    .map((row) => {
      const hit = row.details as unknown as ScreeningHit;
      const match = hitKind(hit) === 'match';
      return { documentId: null, severity: match ? 'error' : 'warning', code: match ? 'watchlist_match' : 'possible_watchlist_match', message: hitMessage(hit), hitId: row.id };
    });
}

/**
 * The automated checks, run when a record enters review: documents shared with or numbered like another person's
 * of the same integrator (a representative's user and its own person record are one person: same-person.ts), a shared SSN, document countries that disagree with the person's data, and name
 * screening (names against the screening lists, docs/screening.md). Findings replace the previous run's; on documents they become `warnings` / `errors` (an error set by
 * an operator stays).
 */
export async function runChecks(tx: Executor, subject: SubjectRef, policy: Policy, at: Date): Promise<void> {
  const record = await recordOf(tx, subject);
  const docs = await listDocuments(tx, OWNER[subject.type], subject.id);
  const findings: Finding[] = [];
  // A representative's own passport on its person record (and the reverse) is one person's, not a duplicate.
  const others = <T>(matches: readonly T[], refOf: (match: T) => RecordRef) => otherPeople(tx, subject.integratorId, { type: subject.type, id: subject.id }, matches, refOf);
  for (const doc of docs) {
    const sameBytes = await others(await sameBytesElsewhere(tx, subject.integratorId, subject.id, doc.sha256), (m) => ({ type: m.ownerType, id: m.ownerId }));
    if (sameBytes.length > 0) {
      findings.push({ documentId: doc.id, severity: 'error', code: 'duplicate_document', message: 'The same file was submitted for another person or company', related: relatedOf(sameBytes[0]!) });
    }
    const numbered = doc.documentNumber ? await sameNumberElsewhere(tx, subject.integratorId, subject.id, { ...doc, documentNumber: doc.documentNumber }) : [];
    const sameNumber = await others(numbered, (m) => ({ type: m.ownerType, id: m.ownerId }));
    if (sameNumber.length > 0) {
      findings.push({ documentId: doc.id, severity: 'error', code: 'document_number_reused', message: 'This document number is already used by another person', related: relatedOf(sameNumber[0]!) });
    }
    const info = record.userInfo;
    if (info?.nationality && ['passport', 'national_id_front', 'national_id_back'].includes(doc.documentType) && doc.issuingCountry !== info.nationality) {
      findings.push({ documentId: doc.id, severity: 'warning', code: 'nationality_mismatch', message: `Issued by ${doc.issuingCountry}, but the nationality is ${info.nationality}` });
    }
    if (info?.residentialAddress && doc.documentType === 'proof_of_address' && doc.issuingCountry !== info.residentialAddress.country) {
      findings.push({ documentId: doc.id, severity: 'warning', code: 'address_country_mismatch', message: `Issued by ${doc.issuingCountry}, but the residence is in ${info.residentialAddress.country}` });
    }
  }
  const sharedSsn = record.ssnFingerprint ? (await others(await sameSsnElsewhere(tx, subject.integratorId, subject.id, record.ssnFingerprint), (m) => ({ type: m.subjectType, id: m.subjectId })))[0] : undefined;
  if (sharedSsn) {
    findings.push({ documentId: null, severity: 'error', code: 'ssn_shared', message: 'Another person of this integrator has the same SSN', related: sharedSsn });
  }
  findings.push(...(await screeningFindings(tx, subject, record.subject, policy, at)));

  const previous = await listFindings(tx, subject.id);
  await replaceFindings(
    tx,
    subject.id,
    findings.map((f) => ({ id: newId(), integratorId: subject.integratorId, subjectType: subject.type, subjectId: subject.id, ...f, related: f.related ?? null, createdAt: at })),
  );
  for (const doc of docs) {
    const previousCheckErrors = new Set(previous.filter((f) => f.documentId === doc.id && f.severity === 'error').map((f) => f.message));
    const mine = findings.filter((f) => f.documentId === doc.id);
    const errors = [...(doc.errors ?? []).filter((e) => !previousCheckErrors.has(e)), ...mine.filter((f) => f.severity === 'error').map((f) => f.message)];
    const warnings = mine.filter((f) => f.severity === 'warning').map((f) => f.message);
    await setDocumentFindings(tx, doc.id, warnings.length > 0 ? warnings : null, errors.length > 0 ? errors : null);
  }
}

/**
 * After a record was created or changed: the checks when the change moved it into review (true: they may have
 * written findings on documents); otherwise its screening alone, which opens a case when an active customer has a
 * new hit (docs/back-office.md#cases-on-active-customers).
 */
export async function checkIfEnteredReview(tx: Executor, subject: SubjectRef, before: VerificationStatus, policy: Policy, at: Date): Promise<boolean> {
  if (subject.status !== 'under_review' || before === 'under_review') {
    await screenCustomer(tx, subject, policy, at);
    return false;
  }
  await runChecks(tx, subject, policy, at);
  return true;
}

/** Screens the record as it is now; a new hit on an active customer opens a case for an operator. */
export async function screenCustomer(tx: Executor, subject: SubjectRef, policy: Policy, at: Date): Promise<void> {
  if (!policy.screening) return;
  const record = await recordOf(tx, subject);
  const { current, raised } = await screenAndRecord(tx, { type: subject.type, id: subject.id, integratorId: subject.integratorId }, record.subject, policy.screening, at);
  // The watch-list findings follow the hits (a cleared hit's finding goes, a new one's comes); the others stay.
  await replaceHitFindings(
    tx,
    subject.id,
    hitFindings(current).map((f) => ({ id: newId(), integratorId: subject.integratorId, subjectType: subject.type, subjectId: subject.id, ...f, related: null, createdAt: at })),
  );
  if (raised.length > 0 && subject.status === 'active') await openCaseOn(tx, subject, 'screening_hit', at, { hitIds: raised.map((h) => h.id) });
}

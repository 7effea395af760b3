import { createHash } from 'node:crypto';
import type { Executor } from '../../db/database.js';
import { appendActivity } from '../../db/repositories/cases.js';
import { clearStaleHits, hitsByKeys, insertNewHits, type ScreeningHitRow } from '../../db/repositories/screening-hits.js';
import { canonicalJson } from '../canonical-json.js';
import { newId } from '../ids.js';
import { entrySourceUrl } from './entry-source.js';
import type { ScreeningLists } from './lists.js';
import type { ListEntry, ListedName, ScreeningHit, ScreeningSubject } from './types.js';

export type CaseSubjectType = ScreeningHitRow['subjectType'];

export interface SubjectKey {
  type: CaseSubjectType;
  id: string;
  integratorId: string;
}

/**
 * What a hit row's `details` hold: the engine's hit, the entry's names and other remarks, the list's version and the
 * entry's page at its publisher (as they were when the hit was raised), and the customer's data as screened.
 */
export interface HitDetails extends ScreeningHit {
  aliases: ListedName[];
  remarks: string[];
  listVersion: string | null;
  sourceUrl: string | null;
  customer: { names: string[]; birthDate: string | null; countries: string[] };
}

/** What of an entry a hit's match key covers: everything matched on, not the remarks shown beside it. */
function matchedPart(entry: ListEntry): Omit<ListEntry, 'remarks'> {
  const { remarks: _shownOnly, ...matched } = entry;
  return matched;
}

/** At most this many hits are recorded per screening (the best ones); a name that hits more is rare and says enough. */
export const MAX_HITS = 5;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The customer's data as screened, in one form whatever the order or blanks it was given in. */
function customerData(subject: ScreeningSubject): HitDetails['customer'] {
  return {
    names: [...new Set(subject.names.map((n) => n.trim()).filter((n) => n !== ''))].sort(),
    birthDate: subject.birthDate ?? null,
    countries: [...new Set((subject.countries ?? []).filter((c): c is string => !!c))].sort(),
  };
}

/**
 * Screens the subject and records each hit not recorded before for the same list entry and the same data on both
 * sides (the match key), so a hit an operator found false is not raised again until the entry or the customer's
 * data changes. Open hits that no longer match (the data changed) become `cleared`. Returns the hits that match
 * now, with their dispositions, and those raised by this call.
 */
export async function screenAndRecord(
  tx: Executor,
  subject: SubjectKey,
  screened: ScreeningSubject,
  lists: ScreeningLists | undefined,
  at: Date,
  /**
   * A batch's knowledge of the subject's recorded hits (match key → status), read once for many customers: what is
   * recorded already and still in force is not written again, nothing is cleared when no open hit went stale, and
   * `current` is not read back (a batch does not use it). Without it, every step runs.
   */
  recorded?: ReadonlyMap<string, ScreeningHitRow['status']>,
): Promise<{ current: ScreeningHitRow[]; raised: ScreeningHitRow[] }> {
  const found = lists && screened.names.length > 0 ? lists.screen(screened).slice(0, MAX_HITS) : [];
  const customer = customerData(screened);
  const customerKey = sha256(canonicalJson({ kind: screened.kind, ...customer }));
  const rows = found.map((hit) => {
    const entry = lists!.entry(hit.list, hit.entryNumber);
    const source = lists!.versions().find((v) => v.label === hit.list);
    const details: HitDetails = {
      ...hit,
      aliases: entry?.aliases ?? [],
      remarks: entry?.remarks ?? [],
      listVersion: source?.version ?? null,
      sourceUrl: source ? entrySourceUrl(source.format, hit.entryNumber) : null,
      customer,
    };
    const entryKey = sha256(canonicalJson(entry ? matchedPart(entry) : hit));
    return {
      id: newId(),
      integratorId: subject.integratorId,
      subjectType: subject.type,
      subjectId: subject.id,
      matchKey: sha256(`${hit.list}\n${hit.entryNumber}\n${entryKey}\n${customerKey}`),
      list: hit.list,
      entryNumber: hit.entryNumber,
      score: hit.score,
      details: details as unknown as Record<string, unknown>,
      createdAt: at,
    };
  });
  const keys = rows.map((r) => r.matchKey);
  const fresh = recorded ? rows.filter((r) => (recorded.get(r.matchKey) ?? 'cleared') === 'cleared') : rows;
  const stale = recorded ? [...recorded].some(([key, status]) => status === 'open' && !keys.includes(key)) : true;
  const raised = fresh.length > 0 ? await insertNewHits(tx, fresh) : [];
  const cleared = stale ? await clearStaleHits(tx, subject.id, keys) : [];
  await appendActivity(tx, [
    ...raised.map((h) => activity(subject, 'hit_raised', `Screening hit raised: ${h.list} entry ${h.entryNumber} (${(h.details as unknown as HitDetails).listedName}), score ${h.score}`, h, at)),
    ...cleared.map((h) => activity(subject, 'hit_cleared', `Screening hit cleared: the data changed and no longer matches ${h.list} entry ${h.entryNumber}`, h, at)),
  ]);
  return { current: recorded ? [] : await hitsByKeys(tx, subject.id, keys), raised };
}

function activity(subject: SubjectKey, kind: string, summary: string, hit: ScreeningHitRow, at: Date) {
  return { id: newId(), integratorId: subject.integratorId, subjectType: subject.type, subjectId: subject.id, kind, operatorId: null, summary, detail: { hitId: hit.id }, createdAt: at };
}

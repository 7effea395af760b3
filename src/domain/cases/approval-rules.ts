import type { Executor } from '../../db/database.js';
import { errorFindingCodes, type ReviewCaseRow } from '../../db/repositories/cases.js';
import { listHits, type ScreeningHitRow } from '../../db/repositories/screening-hits.js';
import { ApiError } from '../errors.js';
import { authorize, ownFalsePositives, type CaseState, type OperatorRef } from './permissions.js';

/*
 * What an approval of a record needs (docs/back-office.md#four-eyes), in one place for the decision, the proposal,
 * its confirmation, the sandbox's simulation and the case as the console shows it:
 * - no hit without a disposition, whoever approves (409 open_hits_remain, naming them);
 * - two operators when a hit was found a true match or the record has an error finding (409 four_eyes_required);
 * - never the operator who found one of its hits false (the permission table's `approve`, 403).
 */

/** A hit as operators name it: "OFAC-SDN entry 7001". */
export const hitLabel = (hit: Pick<ScreeningHitRow, 'list' | 'entryNumber'>): string => `${hit.list} entry ${hit.entryNumber}`;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "1 screening hit has no disposition (OFAC-SDN entry 7001)", or undefined when every hit has one. */
function openHitsWords(hits: readonly ScreeningHitRow[]): string | undefined {
  const open = hits.filter((h) => h.status === 'open');
  if (open.length === 0) return undefined;
  return `${plural(open.length, 'screening hit has', 'screening hits have')} no disposition (${open.map(hitLabel).join(', ')})`;
}

/**
 * 409 open_hits_remain when a hit of the record has no disposition: no approval, direct, confirmed or simulated,
 * lets a customer in past a hit nobody decided, and no case on an active customer closes over one. `outcome` says
 * what waits: "before the record is approved".
 */
export async function refuseOpenHits(tx: Executor, subjectId: string, outcome: string, hits?: readonly ScreeningHitRow[]): Promise<void> {
  const words = openHitsWords(hits ?? (await listHits(tx, subjectId)));
  if (words) throw new ApiError('open_hits_remain', `${words}: an operator marks each a true match or a false positive ${outcome}`);
}

/** "before the record is approved": what an open hit holds a decision that lets a customer in back from. */
export const beforeLettingIn = (decision: 'approve' | 'reactivate'): string => `before the record is ${decision === 'approve' ? 'approved' : 'reactivated'}`;

/** The hits operators found false, for the permission table's `approve` (their disposer does not approve). */
function falsePositivesOf(hits: readonly ScreeningHitRow[]): CaseState['falsePositives'] {
  return hits.filter((h) => h.status === 'false_positive' && h.dispositionBy).map((h) => ({ by: h.dispositionBy!, hit: hitLabel(h) }));
}

/** Who the case's work involves, for the permission table; who found which hits false only when `hits` are given. */
export function caseState(row: Pick<ReviewCaseRow, 'proposedBy' | 'assigneeId'>, hits?: readonly ScreeningHitRow[]): CaseState {
  return { proposerId: row.proposedBy, holderId: row.assigneeId, ...(hits ? { falsePositives: falsePositivesOf(hits) } : {}) };
}

/**
 * What an operator's approval (or reactivation) passes before it is applied or confirmed, on one read of the hits:
 * first what holds every operator back (a hit nobody decided), then what holds this one back (a hit they found
 * false). The hits are returned, for four eyes.
 */
export async function requireLettingIn(tx: Executor, row: ReviewCaseRow, operator: OperatorRef, outcome: string): Promise<ScreeningHitRow[]> {
  const hits = await listHits(tx, row.subjectId);
  await refuseOpenHits(tx, row.subjectId, outcome, hits);
  authorize('approve', operator, caseState(row, hits));
  return hits;
}

/**
 * Why an approval of the record takes a second operator whoever asks ("1 error finding (ssn_shared)"), or
 * undefined: a hit marked a true match, an error finding. Error findings are counted as the queue and the checks
 * count them, a hit's watch-list finding included, so the three say the same number.
 */
export async function fourEyesReason(tx: Executor, subjectId: string, hits?: readonly ScreeningHitRow[]): Promise<string | undefined> {
  const trueMatches = (hits ?? (await listHits(tx, subjectId))).filter((h) => h.status === 'true_match');
  const errors = await errorFindingCodes(tx, subjectId);
  const parts = [
    trueMatches.length > 0 ? `${plural(trueMatches.length, 'screening hit', 'screening hits')} marked a true match (${trueMatches.map(hitLabel).join(', ')})` : '',
    errors.length > 0 ? `${plural(errors.length, 'error finding', 'error findings')} (${[...new Set(errors)].sort().join(', ')})` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' and ') : undefined;
}

/**
 * How `operator` may approve (or reactivate) the record now, and why: `direct`, one operator; `proposal`, proposed
 * for a supervisor to confirm; `dispositions_first`, not before every hit has its disposition. The console labels
 * its button with it before the click; the decision itself applies the same rules.
 */
export async function approvalPath(tx: Executor, subjectId: string, operator: OperatorRef | undefined): Promise<{ path: 'direct' | 'proposal' | 'dispositions_first'; detail: string | null }> {
  const hits = await listHits(tx, subjectId);
  const open = openHitsWords(hits);
  if (open) return { path: 'dispositions_first', detail: open };
  const fourEyes = await fourEyesReason(tx, subjectId, hits);
  const reasons = [fourEyes ? `the case has ${fourEyes}` : ''];
  const mine = operator ? ownFalsePositives(operator, { falsePositives: falsePositivesOf(hits) }) : [];
  if (mine.length > 0) reasons.push(`you marked ${mine.join(', ')} a false positive`);
  const detail = reasons.filter(Boolean).join('; ');
  return detail ? { path: 'proposal', detail } : { path: 'direct', detail: null };
}

import type { Executor } from '../../db/database.js';
import { findCase, listActivity } from '../../db/repositories/cases.js';
import { listHits, type ScreeningHitRow } from '../../db/repositories/screening-hits.js';
import { listTransitions } from '../../db/repositories/verification.js';
import { operatorNames } from '../operators/operators.js';
import type { HitDetails } from '../screening/subject-hits.js';
import { approvalPath } from './approval-rules.js';
import type { OperatorRef } from './permissions.js';

type Names = Map<string, string>;
const who = (names: Names, id: string | null) => (id ? { operatorId: id, name: names.get(id) ?? '(unknown operator)' } : null);

/**
 * A hit's details as stored: those raised before hits explained themselves (issue 52) have no `explanation`, those
 * raised before issue 56 no remarks, list version or source link.
 */
type StoredHitDetails = Omit<HitDetails, 'explanation' | 'remarks' | 'listVersion' | 'sourceUrl'> & Partial<Pick<HitDetails, 'explanation' | 'remarks' | 'listVersion' | 'sourceUrl'>>;

/**
 * A hit as operators read it: both sides' data side by side, the score, what agreed, why it scored what it did (null
 * for a hit raised before hits explained themselves), and its disposition.
 */
export function hitView(row: ScreeningHitRow, names: Names) {
  const d = row.details as unknown as StoredHitDetails;
  return {
    hitId: row.id,
    subjectType: row.subjectType,
    subjectId: row.subjectId,
    list: row.list,
    entryNumber: row.entryNumber,
    entryType: d.entryType,
    programs: d.programs,
    listedName: d.listedName,
    aliases: d.aliases.map((a) => ({ name: a.name, aliasType: a.aliasType ?? null })),
    matchedAlias: d.matchedAlias ? { name: d.matchedAlias.name, aliasType: d.matchedAlias.aliasType ?? null } : null,
    matchedName: d.matchedName,
    score: row.score,
    nameScore: d.nameScore,
    agreed: d.agreed,
    conflicting: d.conflicting,
    explanation: d.explanation ?? null,
    listed: { birthDates: d.listedBirthDates, countries: d.listedCountries, remarks: d.remarks ?? null },
    listVersion: d.listVersion ?? null,
    sourceUrl: d.sourceUrl ?? null,
    customer: d.customer,
    status: row.status,
    disposition: row.dispositionAt ? { note: row.dispositionNote ?? '', operator: who(names, row.dispositionBy)!, at: row.dispositionAt.toISOString() } : null,
    raisedAt: row.createdAt.toISOString(),
  };
}

const TRANSITION_WORDS: Record<string, string> = { created: 'Created', approve: 'Approved', reject: 'Rejected', request_resubmission: 'Resubmission requested', deactivate: 'Deactivated', reactivate: 'Reactivated', reopen: 'Reopened' };

/**
 * The case's working state and its full timeline (status changes, notes, claims, proposals, hits and their
 * dispositions), oldest first, every time in UTC; and how `operator` may approve it now (the four-eyes rule).
 */
export async function caseWork(db: Executor, subjectId: string, operator?: OperatorRef) {
  const [row, hits, activity, transitions, names] = [await findCase(db, subjectId), await listHits(db, subjectId), await listActivity(db, subjectId), await listTransitions(db, subjectId), await operatorNames(db)];
  const timeline = [
    ...transitions.map((t) => ({
      at: t.createdAt.toISOString(),
      kind: 'status_changed',
      actor: { type: t.actorType, id: t.actorId, name: t.actorType === 'operator' && t.actorId ? (names.get(t.actorId) ?? null) : null },
      summary: `${TRANSITION_WORDS[t.action] ?? t.action.replace(/_/g, ' ')}: ${t.fromStatus} → ${t.toStatus}${t.reason && t.reason !== t.action ? ` (${t.reason})` : ''}`,
    })),
    ...activity.map((a) => ({
      at: a.createdAt.toISOString(),
      kind: a.kind,
      actor: a.operatorId ? { type: 'operator' as const, id: a.operatorId, name: names.get(a.operatorId) ?? null } : { type: 'system' as const, id: null, name: null },
      summary: a.summary,
    })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return {
    approval: await approvalPath(db, subjectId, operator),
    hits: hits.map((h) => hitView(h, names)),
    assignee: who(names, row?.assigneeId ?? null),
    proposal:
      row?.proposedBy && row.proposedDecision
        ? { decision: row.proposedDecision, reasons: row.proposedReasons ?? [], proposedBy: who(names, row.proposedBy)!, proposedAt: row.proposedAt!.toISOString() }
        : null,
    openReason: row?.openedAt ? row.openReason : null,
    openedAt: row?.openedAt?.toISOString() ?? null,
    timeline,
    timeZone: 'UTC' as const,
  };
}

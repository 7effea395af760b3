import type { Decision, SubjectType } from './types';

// The back office's shapes (issue 36: screening hits, claims, notes, four-eyes proposals, the case's timeline), as
// /admin/api writes them (src/http/schemas/admin.ts). Written out, as types.ts is: the console is built apart.

export type Role = 'reviewer' | 'supervisor';

export interface OperatorRef {
  operatorId: string;
  name: string;
}

export const QUEUE_FLAGS = ['open_hits', 'error_findings', 'duplicates', 'proposal_pending'] as const;
export type QueueFlag = (typeof QUEUE_FLAGS)[number];
export type AssigneeFilter = 'me' | 'unassigned';
export type OpenReason = 'screening_hit' | 'incoming_from_listed_address';

/** What a queue row says about its case beside the status. */
export interface CaseFlags {
  openHits: number;
  errorFindings: number;
  duplicates: boolean;
  proposal: null | { decision: Decision; proposedBy: OperatorRef };
}

export type HitField = 'name' | 'birthDate' | 'country';
export type HitStatus = 'open' | 'true_match' | 'false_positive' | 'cleared';
export type Disposition = 'true_match' | 'false_positive';

export type ScoreAdjustmentKind = 'extra_words' | 'contradicting_words' | 'legal_form' | 'birth_date' | 'country';

/** Why a hit scored what it did (docs/back-office.md#hits): the words paired, the words left over, the adjustments. */
export interface HitExplanation {
  /** The words as the matcher read them (lower case, Latin letters); similarity 0 to 1; weight: the pair's share of the name's score. */
  pairs: { subject: string; listed: string; similarity: number; weight: number }[];
  /** Words only the customer's name has, and only the listed name has. */
  onlySubject: string[];
  onlyListed: string[];
  /** What raised or lowered the score after the words' mean: effect signed, detail a line saying why. */
  adjustments: { kind: ScoreAdjustmentKind; effect: number; detail: string }[];
}

/** A screening list entry the customer's name matched, with what agreed and what did not. */
export interface Hit {
  hitId: string;
  list: string;
  entryNumber: string;
  entryType: 'individual' | 'entity' | 'vessel' | 'aircraft' | 'unknown';
  programs: string[];
  listedName: string;
  /** aliasType as the list types it (a.k.a.; the UN's Good or Low; the UK's Alias (Low quality)…); null for the entry's own name. */
  aliases: { name: string; aliasType: string | null }[];
  matchedAlias: null | { name: string; aliasType: string | null };
  matchedName: string;
  score: number;
  nameScore: number;
  agreed: HitField[];
  conflicting: HitField[];
  /** Null for a hit raised before hits explained themselves. */
  explanation: HitExplanation | null;
  /** remarks: the entry's other remarks (place of birth, gender, identifiers…); null (or absent, from an older server) for a hit raised before hits recorded them. */
  listed: { birthDates: string[]; countries: string[]; remarks?: string[] | null };
  /** The list's version the hit was raised against; null or absent when not recorded. */
  listVersion?: string | null;
  /** The entry at its publisher (OFAC's page of it; another list's page); null or absent when there is none. */
  sourceUrl?: string | null;
  customer: { names: string[]; birthDate: string | null; countries: string[] };
  status: HitStatus;
  disposition: null | { note: string; operator: OperatorRef; at: string };
  raisedAt: string;
}

export interface Proposal {
  decision: Decision;
  reasons: string[];
  proposedBy: OperatorRef;
  proposedAt: string;
}

export interface TimelineItem {
  at: string;
  kind: string;
  actor: { type: 'operator' | 'system' | 'integrator' | 'sandbox'; id: string | null; name: string | null };
  summary: string;
}

/** The other case a duplicate document, a reused number or a shared SSN belongs to. */
export interface RelatedCase {
  subjectType: SubjectType;
  subjectId: string;
  name: string;
}

/**
 * How the operator asking may approve (or reactivate) the case now, as the server applies the four-eyes rules
 * (docs/back-office.md#four-eyes): one operator, a proposal for a supervisor, or each hit's disposition first; and why.
 */
export interface ApprovalPath {
  path: 'direct' | 'proposal' | 'dispositions_first';
  detail: string | null;
}

/** What the case view adds to a case (every field optional until the server sends it). */
export interface CaseBackOffice {
  approval?: ApprovalPath;
  hits?: Hit[];
  assignee?: OperatorRef | null;
  proposal?: Proposal | null;
  openReason?: OpenReason | null;
  openedAt?: string | null;
  timeline?: TimelineItem[];
  timeZone?: string;
}

export interface ReviewItemBackOffice {
  flags?: CaseFlags;
  assignee?: OperatorRef | null;
  openReason?: OpenReason | null;
}

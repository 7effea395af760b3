import { Type } from 'typebox';
import type { ScoreAdjustmentKind } from '../../domain/screening/types.js';
import { DECISIONS } from '../../domain/verification/decisions.js';
import { Nullable, Uuid } from './onboarding/common.js';
import { FORMATS, patterned } from './patterns.js';

/*
 * The back office's shapes (docs/back-office.md): screening hits, a case's working state and timeline, and the bodies
 * of the operator's case work. The same schemas validate the requests and make the admin OpenAPI document.
 */

const DateTime = () => Type.String({ format: 'date-time' });
const SubjectType = () => Type.Enum(['user', 'associated_person', 'entity'], { type: 'string' });
const Note = (description: string) => patterned(FORMATS.notBlank, { minLength: 1, maxLength: 2000, description });

export const OperatorRefSchema = Type.Object({ operatorId: Uuid(), name: Type.String() }, { additionalProperties: false, title: 'OperatorRef' });
const AliasSchema = Type.Object({ name: Type.String(), aliasType: Nullable(Type.String({ description: 'As the list types the alias: a.k.a., f.k.a., n.k.a. (OFAC, the EU); the UN’s quality Good or Low, original script; the UK’s Alias (Low quality), Primary Name Variation, non-Latin script. Null for the entry’s own name' })) }, { additionalProperties: false, title: 'ListedAlias' });
const Field = () => Type.Enum(['name', 'birthDate', 'country'], { type: 'string' });

const Share = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });
const ADJUSTMENTS: Record<ScoreAdjustmentKind, string> = {
  extra_words: 'words only one side has',
  contradicting_words: 'words of the two names that contradict each other',
  legal_form: 'a company’s legal form (LLC, GmbH) on one side or both',
  birth_date: 'the birth dates agree or differ',
  country: 'the countries agree or differ',
};
const PairedWordsSchema = Type.Object(
  {
    subject: Type.String({ description: 'The customer’s word, as the matcher read it (lower case, Latin letters)' }),
    listed: Type.String({ description: 'The listed name’s word it was paired with, read the same way' }),
    similarity: Share('How alike the two words are, 0 to 1 (3 decimals)'),
    weight: Share('Its share of the name’s score (the pairs’ weights sum to 1): a family name and a rare, long word weigh more'),
  },
  { additionalProperties: false, title: 'PairedWords', description: 'One word of the customer’s name paired with one of the listed name’s' },
);
const ScoreAdjustmentSchema = Type.Object(
  {
    kind: Type.Enum(Object.keys(ADJUSTMENTS) as ScoreAdjustmentKind[], {
      type: 'string',
      description: Object.entries(ADJUSTMENTS)
        .map(([kind, what]) => `${kind}: ${what}`)
        .join('; '),
    }),
    effect: Type.Number({ description: 'What it added to the score (positive) or took from it (negative), 3 decimals' }),
    detail: Type.String({ description: 'Why, in a line' }),
  },
  { additionalProperties: false, title: 'ScoreAdjustment', description: 'What raised or lowered the score after the words’ mean' },
);
const HitExplanationSchema = Type.Object(
  {
    pairs: Type.Array(PairedWordsSchema, { description: 'The words compared, each pair’s similarity and weight' }),
    onlySubject: Type.Array(Type.String(), { description: 'Words only the customer’s name has' }),
    onlyListed: Type.Array(Type.String(), { description: 'Words only the listed name has' }),
    adjustments: Type.Array(ScoreAdjustmentSchema, { description: 'In the order applied; the score is the name’s words’ mean with these, kept within 0 to 1' }),
  },
  {
    additionalProperties: false,
    title: 'HitExplanation',
    description: 'Why the hit scored what it did: which words agreed, which differed, and by how much (docs/screening.md#what-a-hit-records); null for a hit raised before hits explained themselves',
  },
);

export const ScreeningHitSchema = Type.Object(
  {
    hitId: Uuid(),
    subjectType: SubjectType(),
    subjectId: Uuid(),
    list: Type.String({ description: 'The list’s label (SCREENING_LISTS)' }),
    entryNumber: Type.String({ description: 'OFAC’s ent_num, the EU’s logicalId, the UN’s REFERENCE_NUMBER (else its DATAID), the UK Sanctions List’s Unique ID; a simple CSV’s line' }),
    entryType: Type.Enum(['individual', 'entity', 'vessel', 'aircraft', 'unknown'], { type: 'string' }),
    programs: Type.Array(Type.String()),
    listedName: Type.String({ description: 'The entry’s own name as published' }),
    aliases: Type.Array(AliasSchema, { description: 'The entry’s aliases (ALT.CSV)' }),
    matchedAlias: Nullable(AliasSchema),
    matchedName: Type.String({ description: 'The customer’s name that matched, as given' }),
    score: Type.Number({ minimum: 0, maximum: 1 }),
    nameScore: Type.Number({ minimum: 0, maximum: 1 }),
    agreed: Type.Array(Field()),
    conflicting: Type.Array(Field()),
    explanation: Nullable(HitExplanationSchema),
    listed: Type.Object(
      {
        birthDates: Type.Array(Type.String()),
        countries: Type.Array(Type.String()),
        remarks: Nullable(
          Type.Array(Type.String(), {
            description: 'The entry’s other remarks as published (OFAC’s: place of birth, gender, passports and other identifiers), never matched on; null for a hit raised before hits recorded them',
          }),
        ),
      },
      { additionalProperties: false, title: 'ListedData' },
    ),
    listVersion: Nullable(Type.String({ description: 'The version (fingerprint of its files) of the list the hit was raised against; null for a hit raised before hits recorded it' })),
    sourceUrl: Nullable(Type.String({ format: 'uri', description: 'The entry at its publisher: OFAC’s page of the entry; the EU’s, UN’s or UK’s page of the list; null for a simple CSV list or a hit raised before hits recorded it' })),
    customer: Type.Object(
      { names: Type.Array(Type.String()), birthDate: Nullable(Type.String()), countries: Type.Array(Type.String()) },
      { additionalProperties: false, title: 'ScreenedData', description: 'The customer’s data as it was screened' },
    ),
    status: Type.Enum(['open', 'true_match', 'false_positive', 'cleared'], { type: 'string', description: 'cleared: the customer’s data changed and no longer matches' }),
    disposition: Nullable(Type.Object({ note: Type.String(), operator: OperatorRefSchema, at: DateTime() }, { additionalProperties: false, title: 'HitDisposition' })),
    raisedAt: DateTime(),
  },
  { additionalProperties: false, title: 'ScreeningHit' },
);

export const TimelineItemSchema = Type.Object(
  {
    at: DateTime(),
    kind: Type.String({ description: 'status_changed, note, claimed, released, proposed, confirmed, overturned, withdrawn, hit_raised, hit_cleared, hit_dispositioned, opened, closed' }),
    actor: Type.Object(
      { type: Type.Enum(['integrator', 'operator', 'system', 'sandbox'], { type: 'string' }), id: Nullable(Type.String()), name: Nullable(Type.String()) },
      { additionalProperties: false, title: 'TimelineActor' },
    ),
    summary: Type.String(),
  },
  { additionalProperties: false, title: 'TimelineItem' },
);

export const ProposalSchema = Type.Object(
  { decision: Type.Enum([...DECISIONS], { type: 'string' }), reasons: Type.Array(Type.String()), proposedBy: OperatorRefSchema, proposedAt: DateTime() },
  { additionalProperties: false, title: 'Proposal' },
);

const OpenReason = () => Nullable(Type.Enum(['screening_hit', 'incoming_from_listed_address'], { type: 'string', description: 'Set while a case is open on an active customer' }));

const ApprovalSchema = Type.Object(
  {
    path: Type.Enum(['direct', 'proposal', 'dispositions_first'], {
      type: 'string',
      description: 'How the operator asking may approve (or reactivate) the record now: direct, one operator; proposal, proposed for a supervisor to confirm; dispositions_first, once every screening hit has its disposition',
    }),
    detail: Nullable(Type.String({ description: 'Why, in the words of the refusal: "the case has 1 error finding (ssn_shared)", "you marked OFAC-SDN entry 7001 a false positive", "1 screening hit has no disposition (…)"' })),
  },
  { additionalProperties: false, title: 'ApprovalPath', description: 'The four-eyes rule for this case and this operator, before anyone presses Approve (docs/back-office.md#four-eyes)' },
);

/** What getCase adds to a case for the back office. */
export const CaseWorkProperties = {
  approval: ApprovalSchema,
  hits: Type.Array(ScreeningHitSchema, { description: 'Every screening hit ever raised on the record, oldest first' }),
  assignee: Nullable(OperatorRefSchema),
  proposal: Nullable(ProposalSchema),
  openReason: OpenReason(),
  openedAt: Nullable(DateTime()),
  timeline: Type.Array(TimelineItemSchema, { description: 'Status changes and operator work, oldest first' }),
  timeZone: Type.Literal('UTC', { description: 'The time zone of every time in the case' }),
};

/** What the queue adds to each item. */
export const QueueItemProperties = {
  flags: Type.Object(
    {
      openHits: Type.Integer({ minimum: 0 }),
      errorFindings: Type.Integer({ minimum: 0 }),
      duplicates: Type.Boolean({ description: 'A duplicate document, a reused document number or a shared SSN' }),
      proposal: Nullable(Type.Object({ decision: Type.Enum([...DECISIONS], { type: 'string' }), proposedBy: OperatorRefSchema }, { additionalProperties: false, title: 'QueuedProposal' })),
    },
    { additionalProperties: false, title: 'CaseFlags' },
  ),
  assignee: Nullable(OperatorRefSchema),
  openReason: OpenReason(),
};

export const RelatedSubjectSchema = Nullable(
  Type.Object({ subjectType: SubjectType(), subjectId: Uuid(), name: Type.String() }, { additionalProperties: false, title: 'RelatedCase', description: 'The other record of a duplicate finding' }),
);

export const QUEUE_FLAGS = ['open_hits', 'error_findings', 'duplicates', 'proposal_pending'] as const;

export const QueueFilterProperties = {
  flag: Type.Optional(Type.Enum([...QUEUE_FLAGS], { type: 'string', description: 'Only cases with this flag' })),
  assignee: Type.Optional(Type.Enum(['me', 'unassigned'], { type: 'string', description: 'Only the cases I hold, or those nobody holds' })),
  q: Type.Optional(patterned(FORMATS.notBlank, { minLength: 1, maxLength: 200, description: 'Search: part of a name or an email, a record id, or a document number' })),
};

export const HitParams = Type.Object({ hitId: Uuid() }, { additionalProperties: false });
export const DispositionBody = Type.Object(
  { disposition: Type.Enum(['true_match', 'false_positive'], { type: 'string' }), note: Note('Why: required, kept in the audit trail') },
  { additionalProperties: false },
);
export const NoteBody = Type.Object({ body: Note('The note, appended to the case’s timeline; notes are never changed') }, { additionalProperties: false });
export const ProposalBody = Type.Object(
  {
    decision: Type.Enum([...DECISIONS], { type: 'string' }),
    reasons: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 10, description: 'Why, for the second operator (required)' }),
  },
  { additionalProperties: false },
);
export const RequiredNoteBody = Type.Object({ note: Note('Why (required)') }, { additionalProperties: false });
export const AssigneeResult = Type.Object({ assignee: Nullable(OperatorRefSchema) }, { additionalProperties: false });
export const ProposalResult = Type.Object({ proposal: Type.Null() }, { additionalProperties: false });
export const CloseResult = Type.Object({ closed: Type.Literal(true) }, { additionalProperties: false });

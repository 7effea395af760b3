import { addNote, claimCase, closeCase, disposeHit, releaseCase } from '../../domain/cases/case-work.js';
import { hitView } from '../../domain/cases/case-work-view.js';
import { confirmProposal, overturnProposal, proposeDecision, withdrawProposal } from '../../domain/cases/operator-decisions.js';
import { operatorNames } from '../../domain/operators/operators.js';
import { problemResponses } from '../schemas/problem.js';
import { ADMIN_TAGS, ADMIN_WRITE_ERRORS, CaseParams, DecisionResultSchema } from '../schemas/admin.js';
import {
  AssigneeResult,
  CloseResult,
  DispositionBody,
  HitParams,
  NoteBody,
  ProposalBody,
  ProposalResult,
  ProposalSchema,
  RequiredNoteBody,
  ScreeningHitSchema,
  TimelineItemSchema,
} from '../schemas/admin-cases.js';
import type { Api, Deps } from '../types.js';

const CASE = '/reviews/:subjectType/:subjectId';

/**
 * The back office's case work (docs/back-office.md): claims, notes, hit dispositions, closing a case on an active
 * customer, and the four-eyes proposal. Inside the admin API's scope (request.operator is set).
 */
export function adminCaseRoutes(api: Api, deps: Deps): void {
  const write = <E extends object>(operationId: string, summary: string, extra: E) => ({ operationId, tags: ADMIN_TAGS.reviews, summary, params: CaseParams, ...extra });

  api.post(`${CASE}/claim`, { schema: write('claimCase', 'Take the case: it shows as yours in the queue (409 case_claimed when another operator holds it)', { response: { 200: AssigneeResult, ...problemResponses(...ADMIN_WRITE_ERRORS, 404, 409) } }) }, (request) =>
    claimCase(deps.database, request.params, request.operator!, deps.clock()),
  );

  api.post(`${CASE}/release`, { schema: write('releaseCase', 'Give the case back to the queue (its holder, or a supervisor)', { response: { 200: AssigneeResult, ...problemResponses(...ADMIN_WRITE_ERRORS, 403, 404) } }) }, (request) =>
    releaseCase(deps.database, request.params, request.operator!, deps.clock()),
  );

  api.post(
    `${CASE}/notes`,
    { schema: write('addCaseNote', 'Append a note to the case’s timeline (notes are never changed)', { body: NoteBody, response: { 201: TimelineItemSchema, ...problemResponses(...ADMIN_WRITE_ERRORS, 404) } }) },
    async (request, reply) => reply.code(201).send(await addNote(deps.database, request.params, request.operator!, request.body.body.trim(), deps.clock())),
  );

  api.post(
    `${CASE}/close`,
    { schema: write('closeCase', 'Close a case opened on an active customer, who stays as it is (every hit needs its disposition first)', { body: RequiredNoteBody, response: { 200: CloseResult, ...problemResponses(...ADMIN_WRITE_ERRORS, 404, 409) } }) },
    (request) => closeCase(deps.database, request.params, request.operator!, request.body.note.trim(), deps.clock()),
  );

  api.post(
    `${CASE}/proposal`,
    {
      schema: write('proposeDecision', 'Propose a decision for a second operator, a supervisor, to confirm (four eyes: how an approval of a case with open hits or error findings is made)', {
        body: ProposalBody,
        response: { 201: ProposalSchema, ...problemResponses(...ADMIN_WRITE_ERRORS, 404, 409) },
      }),
    },
    async (request, reply) => reply.code(201).send(await proposeDecision(deps.database, request.params, request.body.decision, request.body.reasons, request.operator!, deps.clock())),
  );

  api.post(
    `${CASE}/proposal/confirm`,
    {
      schema: write('confirmProposal', 'Confirm the proposed decision and apply it, with a note: a supervisor other than its proposer (an approval: once every hit has its disposition, and not by whoever found one false)', {
        body: RequiredNoteBody,
        response: { 200: DecisionResultSchema, ...problemResponses(...ADMIN_WRITE_ERRORS, 403, 404, 409, 422) },
      }),
    },
    (request) => confirmProposal(deps.database, request.params, request.body.note.trim(), request.operator!, deps.policy, deps.clock()),
  );

  api.post(
    `${CASE}/proposal/withdraw`,
    {
      schema: write('withdrawProposal', 'Take back your own proposed decision (its proposer only); the case stays as it is and can be decided or proposed again', {
        response: { 200: ProposalResult, ...problemResponses(...ADMIN_WRITE_ERRORS, 403, 404, 409) },
      }),
    },
    (request) => withdrawProposal(deps.database, request.params, request.operator!, deps.clock()),
  );

  api.post(
    `${CASE}/proposal/overturn`,
    {
      schema: write('overturnProposal', 'Set the proposed decision aside, saying why: a supervisor other than its proposer; the case stays as it is', {
        body: RequiredNoteBody,
        response: { 200: ProposalResult, ...problemResponses(...ADMIN_WRITE_ERRORS, 403, 404, 409) },
      }),
    },
    (request) => overturnProposal(deps.database, request.params, request.body.note.trim(), request.operator!, deps.clock()),
  );

  api.post(
    '/screening-hits/:hitId/disposition',
    {
      schema: {
        operationId: 'disposeScreeningHit',
        tags: ADMIN_TAGS.screening,
        summary: 'Mark a screening hit a true match or a false positive, with a note (final; a false positive is not raised again for the same entry and data)',
        params: HitParams,
        body: DispositionBody,
        response: { 200: ScreeningHitSchema, ...problemResponses(...ADMIN_WRITE_ERRORS, 404, 409) },
      },
    },
    async (request) => {
      const row = await disposeHit(deps.database, request.params.hitId, request.body.disposition, request.body.note.trim(), request.operator!, deps.clock());
      return hitView(row, await operatorNames(deps.database.db));
    },
  );
}

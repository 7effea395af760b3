import { Type } from 'typebox';
import { getApprovalPolicy, updateApprovalPolicy } from '../../../domain/members/approval-policy.js';
import { listMembers, removeMember, updateMemberRole } from '../../../domain/members/members.js';
import { actorFrom, integratorOf } from '../../context.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { ActingMemberFields, ApprovalPolicySchema, MemberListSchema, MemberSchema, RoleSchema } from '../../schemas/members.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Account management'];
const AccountQuery = Type.Object({ accountId: Uuid() }, { additionalProperties: false });

/** Members and approval policies of entity accounts (docs/members.md). */
export function memberRoutes(api: Api, deps: Deps): void {
  api.get(
    '/v1/query/list-members',
    {
      schema: {
        operationId: 'listMembers',
        tags: TAGS,
        summary: 'The members of an entity account with their roles, oldest first',
        querystring: AccountQuery,
        response: { 200: MemberListSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404, 409) },
      },
    },
    async (request) => listMembers(deps.database.db, integratorOf(request), request.query.accountId),
  );

  api.post(
    '/v1/submit/update-member-role',
    {
      schema: {
        operationId: 'updateMemberRole',
        tags: TAGS,
        summary: 'Changes a member’s role, on behalf of a member whose role allows it (the last owner stays an owner)',
        headers: IdempotencyHeaders,
        body: Type.Object({ accountId: Uuid(), userId: Uuid('The member whose role changes'), role: RoleSchema, ...ActingMemberFields }, { additionalProperties: false }),
        response: { 200: MemberSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => updateMemberRole(actorFrom(request, deps), request.body),
  );

  api.post(
    '/v1/submit/remove-member',
    {
      schema: {
        operationId: 'removeMember',
        tags: TAGS,
        summary: 'Removes a member, on behalf of a member whose role allows it; answers the member as it was',
        headers: IdempotencyHeaders,
        body: Type.Object({ accountId: Uuid(), userId: Uuid('The member to remove'), ...ActingMemberFields }, { additionalProperties: false }),
        response: { 200: MemberSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => removeMember(actorFrom(request, deps), request.body),
  );

  api.get(
    '/v1/query/get-approval-policy',
    {
      schema: {
        operationId: 'getApprovalPolicy',
        tags: TAGS,
        summary: 'How many member approvals a transaction from the account’s wallet needs (0 self-custodial, 1 individual)',
        querystring: AccountQuery,
        response: { 200: ApprovalPolicySchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => getApprovalPolicy(deps.database.db, integratorOf(request), request.query.accountId),
  );

  api.post(
    '/v1/submit/update-approval-policy',
    {
      schema: {
        operationId: 'updateApprovalPolicy',
        tags: TAGS,
        summary: 'Sets requiredApprovals (1..the members who may approve), on behalf of an owner',
        headers: IdempotencyHeaders,
        body: Type.Object({ accountId: Uuid(), requiredApprovals: Type.Integer({ minimum: 1, maximum: 100 }), ...ActingMemberFields }, { additionalProperties: false }),
        response: { 200: ApprovalPolicySchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => updateApprovalPolicy(actorFrom(request, deps), request.body),
  );
}

import { Type } from 'typebox';
import { addAddressBookEntry, listAddressBook } from '../../../domain/policies/address-book.js';
import { policyAssets } from '../../../domain/policies/policy-assets.js';
import { createPolicy, deletePolicy, getPolicy, listPolicies } from '../../../domain/policies/policies.js';
import { actorFrom, integratorOf } from '../../context.js';
import { emptyBodyAsObject, OPTIONAL_BODY } from '../../optional-body.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import {
  AccountIdParams,
  AddressBookEntryBody,
  AddressBookEntrySchema,
  AddressBookPageSchema,
  CreatePolicyBody,
  DeletePolicyBody,
  ListAddressBookQuery,
  ListPoliciesQuery,
  PolicyIdParams,
  PolicyPageSchema,
  PolicySchema,
} from '../../schemas/policies.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Spending policies'];

/** Spending policies and address books (docs/policies.md). Policies are only recorded here; their enforcement is the signing paths'. */
export function policyRoutes(api: Api, deps: Deps): void {
  const assets = policyAssets(deps.chains, deps.tokens);

  api.post(
    '/v1/policies',
    {
      schema: {
        operationId: 'createPolicy',
        tags: TAGS,
        summary: 'Creates a spending policy over one account or all the integrator’s accounts: its rules are checked (assets, decimals, windows) and stored with amounts in base units',
        headers: IdempotencyHeaders,
        body: CreatePolicyBody,
        response: { 201: { ...PolicySchema, description: 'The new policy' }, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) => reply.code(201).send(await createPolicy(actorFrom(request, deps), assets, request.body)),
  );

  api.get(
    '/v1/policies',
    {
      schema: {
        operationId: 'listPolicies',
        tags: TAGS,
        summary: 'The integrator’s policies in force (not deleted), oldest first, with cursor pagination',
        querystring: ListPoliciesQuery,
        response: { 200: PolicyPageSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => {
      const q = request.query;
      return listPolicies(deps.database.db, integratorOf(request), { limit: q.limit ?? 20, ...(q.startingAfter ? { startingAfter: q.startingAfter } : {}), ...(q.accountId ? { accountId: q.accountId } : {}) });
    },
  );

  api.get(
    '/v1/policies/:policyId',
    {
      schema: {
        operationId: 'getPolicy',
        tags: TAGS,
        summary: 'One policy, deleted ones included (deletedAt set)',
        params: PolicyIdParams,
        response: { 200: { ...PolicySchema, description: 'The policy' }, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => getPolicy(deps.database.db, integratorOf(request), request.params.policyId),
  );

  api.delete(
    '/v1/policies/:policyId',
    {
      schema: {
        operationId: 'deletePolicy',
        tags: TAGS,
        summary: 'Deletes a policy: it no longer applies; it stays readable with deletedAt (409 policy_deleted the second time). A policy of an entity account takes one of its owners’ approval in the body (docs/policies.md#who-may-change-a-policy); other policies are deleted without a body',
        params: PolicyIdParams,
        body: DeletePolicyBody,
        ...OPTIONAL_BODY,
        response: { 204: Type.Null({ description: 'Deleted' }), ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request, reply) => {
      await deletePolicy(actorFrom(request, deps), request.params.policyId, request.body);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/v1/accounts/:accountId/address-book',
    {
      schema: {
        operationId: 'addAddressBookEntry',
        tags: TAGS,
        summary: 'Adds a destination to an account’s address book, usable once the largest new_destination_delay of the policies covering the account has passed (at once without one)',
        headers: IdempotencyHeaders,
        params: AccountIdParams,
        body: AddressBookEntryBody,
        response: { 201: { ...AddressBookEntrySchema, description: 'The new entry' }, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) => reply.code(201).send(await addAddressBookEntry(actorFrom(request, deps), request.params.accountId, request.body)),
  );

  api.get(
    '/v1/accounts/:accountId/address-book',
    {
      schema: {
        operationId: 'listAddressBook',
        tags: TAGS,
        summary: 'An account’s address book, oldest first, with cursor pagination',
        params: AccountIdParams,
        querystring: ListAddressBookQuery,
        response: { 200: AddressBookPageSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => {
      const q = request.query;
      return listAddressBook(deps.database.db, integratorOf(request), request.params.accountId, { limit: q.limit ?? 20, ...(q.startingAfter ? { startingAfter: q.startingAfter } : {}) });
    },
  );
}

import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { AppEnv } from '../config/types.js';
import { API_VERSION } from '../version.js';
import { ADMIN_PREFIX } from './admin/admin-api.js';
import { addDiscriminators, nameTitledSchemas, pruneUnusedComponents } from './openapi-components.js';
import { declareResponseHeaders } from './openapi-headers.js';
import { linkGuides } from './openapi-links.js';
import { markOptionalBodies } from './optional-body.js';
import { REQUEST_EXAMPLE_NOTES, REQUEST_EXAMPLES } from './request-examples.js';
import { ADMIN_REQUEST_EXAMPLES } from './request-examples-admin.js';
import { PROBLEM_EXAMPLES } from './schemas/problem.js';
import { operatorDocsUi } from './pages/docs-page.js';
import { integratorDocsUi } from './pages/docs-try-it-out.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The operators' OpenAPI document (/admin/api), the second instance of @fastify/swagger. */
    adminSwagger(): Record<string, unknown>;
  }
}

/**
 * A document keeps the routes whose URL `keep` accepts; the others are hidden from it, and its operations' request
 * bodies get their example from `examples` (by operationId). An operation without a
 * description of its own is described by its summary (every operation has one; linters and generated SDKs read the
 * description), and a summary's "(docs/...)" mention is left to the description.
 */
const documenting =
  (keep: (url: string) => boolean, examples: Record<string, Record<string, unknown>>): SwaggerTransform =>
  ({ schema, url }) => {
    if (!keep(url)) return { schema: { ...schema, hide: true }, url };
    const s = (schema ?? {}) as { summary?: string; description?: string; operationId?: string; body?: object };
    const example = s.operationId ? examples[s.operationId] : undefined;
    // A body example is documentation only: @fastify/swagger moves a body schema's `examples` to the media type.
    const withExample = example && s.body ? { ...schema, body: { ...s.body, examples: [example] } } : schema;
    // An example with values made per request (a stamp, a token) says in the description which helper makes them.
    const note = s.operationId ? REQUEST_EXAMPLE_NOTES[s.operationId] : undefined;
    const base = s.description ?? s.summary;
    const description = note && base ? `${base.replace(/([^.!?])$/, '$1.')} ${note}` : (base ?? note);
    const described = description ? { ...withExample, description } : withExample;
    // A summary is plain text: its guide mention lives on in the description, where it becomes a link.
    return { schema: s.summary ? { ...described, summary: s.summary.replace(/\s*\(docs\/[^)]*\)/g, '') } : described, url };
  };

/**
 * Titled schemas become named components, unions keyed on a property get their discriminator, response headers are declared, guide mentions linked, and what a document
 * does not use is dropped (openapi-components.ts, openapi-headers.ts, openapi-links.ts); a body a route may go without is not required (optional-body.ts).
 */
const namingComponents: SwaggerTransformObject = (document) =>
  pruneUnusedComponents(linkGuides(declareResponseHeaders(addDiscriminators(nameTitledSchemas(markOptionalBodies('openapiObject' in document ? document.openapiObject : document.swaggerObject))))));

const isAdmin = (url: string) => url.startsWith(`${ADMIN_PREFIX}/`);

// Shared schemas (Problem, Credential) appear under components.schemas by their $id.
const refResolver = { buildLocalReference: (json: { $id?: unknown }, _baseUri: unknown, _fragment: unknown, i: number) => String(json.$id ?? `def-${i}`) };

/**
 * The OpenAPI documents are generated from the route schemas that validate requests, so they cannot drift.
 * Two of them: the integrators' (/openapi.json, /docs), whose security scheme is the spec's "API key made of
 * three headers" (three apiKey schemes required together), and the operators' (/admin/openapi.json,
 * /admin/docs), a bearer token. /docs signs Try it out requests in the browser in the sandbox and has it off in
 * production (pages/docs-try-it-out.ts).
 */
export async function registerOpenApi(app: FastifyInstance, appEnv: AppEnv): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Integrator API',
        version: API_VERSION,
        description:
          'Onboard end users and companies, run verification, move money and crypto, manage signing credentials and receive signed webhooks. ' +
          'Every /v1 request is signed: see the X-Pubkey, X-Timestamp and X-Signature headers. Errors are RFC 9457 problem details. ' +
          'Guides: [quickstart](/guides/quickstart), [authentication](/guides/authentication), [errors](/guides/errors), [all guides](/guides).',
      },
      components: {
        examples: PROBLEM_EXAMPLES,
        securitySchemes: {
          pubkey: { type: 'apiKey', in: 'header', name: 'X-Pubkey', description: 'Compressed SEC1 P-256 public key, hex with 0x' },
          timestamp: { type: 'apiKey', in: 'header', name: 'X-Timestamp', description: 'Unix time in seconds; within 60 s of server time' },
          signature: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Signature',
            description: 'DER ECDSA P-256 signature (hex, 0x) of SHA-256({timestamp}{METHOD}{path_and_query}{raw body})',
          },
        },
      },
      security: [{ pubkey: [], timestamp: [], signature: [] }],
      // Relative: the document describes the server that serves it, whatever its host (Try it out calls it).
      servers: [{ url: '/', description: 'This server' }],
      tags: [
        { name: 'API health', description: 'Whether the API answers, and what the calling credential may do' },
        { name: 'Customer management', description: 'End users, individual and entity accounts, associated persons, documents and verification (docs/onboarding.md, docs/verification.md)' },
        { name: 'Account management', description: 'Entity wallets, members and roles, invitations, approval policies and quorum decisions (docs/members.md)' },
        { name: 'Products', description: 'The product catalogue, each account’s products, and yield vaults (docs/products.md)' },
        { name: 'Tokens', description: 'The listed ERC-20 tokens (stablecoins) and what an account’s wallet holds (docs/tokens.md)' },
        { name: 'Transactions', description: 'Transfers approved by passkey or one-time code, fiat deposits and withdrawals, bank accounts (docs/transactions.md)' },
        { name: 'Spending policies', description: 'Limits, allowed destinations, delays for new destinations and step-up approvals over an integrator’s accounts, and each account’s address book (docs/policies.md)' },
        { name: 'Ledger', description: 'Every movement of an account’s money in balanced, double-entry ledger entries (docs/ledger.md)' },
        { name: 'OTP authentication', description: 'One-time codes by email that approve transactions and member actions (docs/otp.md)' },
        { name: 'Events', description: 'Every state change as an event, listed with filters and a long poll (docs/events.md)' },
        { name: 'Webhooks', description: 'Signed deliveries of events to your endpoints, their history and retries (docs/webhooks.md)' },
        { name: 'Integrator key management', description: 'The P-256 credentials that sign your requests (docs/authentication.md)' },
        { name: 'Sandbox', description: 'Sandbox only: simulations of what a bank, an operator or a user would do' },
        { name: 'Operations', description: 'Liveness, readiness and problem type descriptions (unsigned)' },
      ],
    },
    transform: documenting((url) => !isAdmin(url), REQUEST_EXAMPLES),
    transformObject: namingComponents,
    refResolver,
  });
  await app.register(swagger, {
    decorator: 'adminSwagger',
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Operator (admin) API',
        version: API_VERSION,
        description:
          'The review queue and decisions on every integrator’s cases, document content, and deposits by reference (funds received, cancel). ' +
          'For operators and bank-feed integrations; see docs/review.md and docs/deposits.md. Errors are RFC 9457 problem details.',
      },
      components: { examples: PROBLEM_EXAMPLES, securitySchemes: { operatorToken: { type: 'http', scheme: 'bearer', description: 'An operator token (npm run -s admin -- operators create --name <name>)' } } },
      security: [{ operatorToken: [] }],
      servers: [{ url: '/', description: 'This server' }],
      tags: [
        { name: 'Reviews', description: 'The verification review queue across integrators, each case with its documents and history, and the decisions on it (docs/review.md)' },
        { name: 'Deposits', description: 'Fiat deposits by reference: funds received from the bank feed, or cancelled (docs/deposits.md)' },
        { name: 'Bank accounts', description: 'Bank accounts whose holder name did not match, to verify or reject (docs/bank-accounts.md)' },
        { name: 'Withdrawals', description: 'Fiat payouts of withdrawals: what the bank transfer needs, sent, settled or returned (docs/withdrawals.md)' },
        { name: 'Screening', description: 'Money to or from wallet addresses on the screening lists: what was refused, and what arrived (docs/screening.md#wallet-addresses)' },
        { name: 'Ledger', description: 'The double-entry ledger: any account with its balances (now or as of a past time), any transaction with its legs, the trial balance (docs/ledger.md)' },
        { name: 'Reconciliation', description: 'The ledger against the chain (breaks) and against the bank’s camt.053 statements (matches and exceptions), the work on them, and the operators’ events (docs/reconciliation.md)' },
        { name: 'Operator', description: 'The calling operator' },
      ],
    },
    transform: documenting(isAdmin, ADMIN_REQUEST_EXAMPLES),
    transformObject: namingComponents,
    refResolver,
  });
  // Each docs page in its own scope: @fastify/swagger-ui decorates its instance, once per instance.
  await app.register(async (scope) => scope.register(swaggerUi, { routePrefix: '/docs', ...integratorDocsUi(appEnv) }));
  await app.register(async (scope) =>
    scope.register(swaggerUi, {
      routePrefix: '/admin/docs',
      // The integrators' reference's shell and look, with a way back (pages/docs-page.ts).
      ...operatorDocsUi(appEnv),
      transformSpecificationClone: false,
      transformSpecification: () => app.adminSwagger(),
    }),
  );
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/admin/openapi.json', { schema: { hide: true } }, async () => app.adminSwagger());
}

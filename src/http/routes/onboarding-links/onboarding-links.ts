import { Type } from 'typebox';
import type { LinkSettings } from '../../../domain/onboarding-links/links.js';
import { createOnboardingLink, getOnboardingLink, revokeOnboardingLink } from '../../../domain/onboarding-links/links.js';
import { simulateOnboardingLink } from '../../../domain/onboarding-links/link-sandbox.js';
import { actorFrom, integratorOf } from '../../context.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { CreatedOnboardingLinkSchema, CreateOnboardingLinkBody, OnboardingLinkIdParams, OnboardingLinkSchema, SimulateOnboardingLinkBody } from '../../schemas/onboarding-links.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Customer management'];
const BASE = '/v1/onboarding-links';

/** Where this deployment serves the hosted page, and the links' rules (docs/onboarding-links.md). */
export function linkSettings(deps: Deps): LinkSettings {
  return { baseUrl: deps.config.invitationBaseUrl, defaultTtlSeconds: deps.config.onboardingLinkTtlSeconds, sandbox: deps.config.appEnv === 'sandbox' };
}

/** Hosted onboarding links (docs/onboarding-links.md); the page itself is src/http/pages/. */
export function onboardingLinkRoutes(api: Api, deps: Deps): void {
  const settings = linkSettings(deps);

  api.post(
    BASE,
    {
      config: { secretResponse: true },
      schema: {
        operationId: 'createOnboardingLink',
        tags: TAGS,
        summary: 'Makes a single-use hosted onboarding link for a new or an existing customer (60 s to 24 h); a newer link for the same customer revokes this one',
        headers: IdempotencyHeaders,
        body: CreateOnboardingLinkBody,
        response: { 201: CreatedOnboardingLinkSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) => reply.code(201).send(await createOnboardingLink(actorFrom(request, deps), settings, request.body)),
  );

  api.get(
    `${BASE}/:onboardingLinkId`,
    {
      schema: {
        operationId: 'getOnboardingLink',
        tags: TAGS,
        summary: 'An onboarding link with its status (never its url), and once completed the userId',
        params: OnboardingLinkIdParams,
        response: { 200: OnboardingLinkSchema, ...problemResponses(...SIGNED_READ_ERRORS, 404) },
      },
    },
    async (request) => getOnboardingLink({ db: deps.database, now: deps.clock() }, integratorOf(request), request.params.onboardingLinkId),
  );

  api.delete(
    `${BASE}/:onboardingLinkId`,
    {
      schema: {
        operationId: 'revokeOnboardingLink',
        tags: TAGS,
        summary: 'Revokes an onboarding link: its page answers 410 from now on (a revoked link again: 204; a completed or expired one: 409)',
        params: OnboardingLinkIdParams,
        response: { 204: Type.Null({ description: 'Revoked' }), ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      await revokeOnboardingLink(actorFrom(request, deps), request.params.onboardingLinkId);
      return reply.code(204).send(null);
    },
  );

  // Sandbox only; production has no such route (a plain 404).
  if (deps.config.appEnv !== 'sandbox') return;
  api.post(
    '/v1/sandbox/simulate-onboarding-link',
    {
      schema: {
        operationId: 'simulateOnboardingLink',
        tags: ['Sandbox'],
        summary: 'Sandbox only: what the customer would do on the hosted page (open it, or finish the flow), with its events',
        headers: IdempotencyHeaders,
        body: SimulateOnboardingLinkBody,
        response: { 200: OnboardingLinkSchema, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => simulateOnboardingLink(actorFrom(request, deps), request.body),
  );
}

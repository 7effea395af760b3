import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../../domain/errors.js';
import { markOpened, openFlowLink, type FlowContext, type FlowLink } from '../../../domain/onboarding-links/flow/flow-link.js';
import { LinkClosedError, withLiveLink, type SaveOutcome } from '../../../domain/onboarding-links/flow/save.js';
import { owedSteps } from '../../../domain/onboarding-links/flow/steps.js';
import type { FailureLimiter } from '../../auth/failure-limiter.js';
import { bodyPending } from '../../body-limits.js';
import { Text } from '../../schemas/onboarding/common.js';
import type { Api, Deps } from '../../types.js';
import { INVITATION_CSP, PAGE_HEADERS, relyingPartyFor } from '../invitation-routes.js';
import { ONBOARDING_SCRIPT, ONBOARDING_STYLE } from './assets.js';
import { FORM_BODY_LIMIT, FormRefused, MULTIPART_BODY_LIMIT, MULTIPART_LIMITS, readStepBody, sizeFirst } from './body.js';
import { finalPage } from './final-page.js';
import { firstPage } from './first-page.js';
import { EMPTY_FORM, type FormState } from './html.js';
import { closedPage, failedPage, noStepPage, refusedPage, tooManyPage, unknownLinkPage } from './messages.js';
import { STEP_PAGES, type StepPage, type StepView } from './step-pages.js';

// The hosted onboarding flow's routes (docs/onboarding-links.md#the-hosted-flow), outside /v1 and unsigned: the token
// in the path is the credential (logged [redacted]). Every request checks the token before anything else (before a
// body is read): unknown is the 404 page (a failed authentication of the address), closed the 410 page saying why.
// GET /onboarding/<token> is the first page; GET|POST /onboarding/<token>/<step> a step's form and its save. HEAD
// (Fastify's, by the GET handlers) answers as GET does, without the body, and leaves the link as it was.

/** The invitation page's policy, with forms posted to this origin (the steps' forms). */
const CSP = INVITATION_CSP.replace("form-action 'none'", "form-action 'self'");
const HEADERS = { ...PAGE_HEADERS, 'content-security-policy': CSP };

/**
 * A step's path: its name is lower case words and dashes, so nothing shaped like a token (/onboarding//<token>, the
 * token in the step's place) is taken by this route and logged as a step; such a path is a 404, logged cut.
 */
const STEP_PATH = '/onboarding/:token/:step(^[a-z][a-z-]{0,39}$)';
const SECRET_TOKEN = { secretParams: ['token'], formBody: true };
const TokenParams = Type.Object({ token: Text(200) }, { additionalProperties: false });
const StepParams = Type.Object({ token: Text(200), step: Text(40) }, { additionalProperties: false });

type TokenRequest = FastifyRequest<{ Params: { token: string; step?: string }; Querystring: Record<string, string> }>;

function html(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

export async function registerOnboardingPages(app: Api, deps: Deps, failures: FailureLimiter): Promise<void> {
  const ctx = (): FlowContext => ({
    db: deps.database,
    secrets: deps.secrets,
    policy: deps.policy,
    now: deps.clock(),
    termsVersion: deps.config.serviceTermsVersion,
    termsUrl: deps.config.serviceTermsUrl,
  });
  /** The live link each request's token opened (tokenFirst), for its handler. */
  const opened = new WeakMap<FastifyRequest, FlowLink>();

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (_request, reply) => {
      reply.headers(HEADERS);
    });
    await scope.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
    await scope.register(multipart, { limits: MULTIPART_LIMITS });

    scope.setErrorHandler(async (error: Error & { statusCode?: number; validation?: unknown }, request, reply) => {
      if (bodyPending(request)) reply.header('connection', 'close');
      if (error.validation) return html(reply, 404, unknownLinkPage());
      if (error instanceof FormRefused) return html(reply, error.status, refusedPage(error.status, error.reason));
      const status = error instanceof ApiError ? error.status : error.statusCode;
      if (status !== undefined && status >= 400 && status < 500) {
        return html(reply, status, refusedPage(status, status === 413 ? 'It is larger than this page takes.' : status === 415 ? 'It was not sent as a form.' : 'It could not be read.'));
      }
      request.log.error({ err: error }, 'the onboarding flow could not go on');
      return html(reply, 500, failedPage());
    });

    scope.get('/onboarding/assets/onboarding.js', { schema: { hide: true } }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(ONBOARDING_SCRIPT));
    scope.get('/onboarding/assets/onboarding.css', { schema: { hide: true } }, async (_request, reply) => reply.type('text/css; charset=utf-8').send(ONBOARDING_STYLE));

    /** The token before anything else: unknown (counted) 404 or 429, closed 410; a live link is kept for the handler. */
    const tokenFirst = async (request: TokenRequest, reply: FastifyReply) => {
      try {
        // Opened only when a page is served (markOpened): a 404 step or a refused POST leaves the link as it was.
        const outcome = await openFlowLink(ctx(), request.params.token, { open: false });
        if ('live' in outcome) {
          opened.set(request, outcome.live);
          return;
        }
        if (bodyPending(request)) reply.header('connection', 'close');
        return html(reply, 410, closedPage(outcome.closed));
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 404) throw err;
        if (bodyPending(request)) reply.header('connection', 'close');
        const counted = failures.fail(request.ip, err);
        if (counted instanceof ApiError && counted.status === 429) {
          if (counted.options.headers) reply.headers(counted.options.headers);
          return html(reply, 429, tooManyPage());
        }
        return html(reply, 404, unknownLinkPage());
      }
    };

    /**
     * Opened as a page's HTML is first served (markOpened). Fastify answers HEAD with the GET handler (the same status
     * and headers, no body): a HEAD serves no HTML, so it leaves the link as it was.
     */
    const served = async (request: TokenRequest, link: FlowLink) => {
      if (request.method !== 'HEAD') await markOpened(ctx(), link);
    };

    const routeOptions = { schema: { hide: true, params: TokenParams }, config: SECRET_TOKEN, onRequest: tokenFirst };
    scope.get('/onboarding/:token', routeOptions, async (request: TokenRequest, reply) => {
      const link = opened.get(request)!;
      await served(request, link);
      return html(reply, 200, firstPage(link, request.params.token));
    });

    const stepOptions = { ...routeOptions, schema: { hide: true, params: StepParams } };
    const pageOf = (link: FlowLink, step: string): StepPage | undefined => (Object.hasOwn(STEP_PAGES[link.row.type] ?? {}, step) ? STEP_PAGES[link.row.type]![step] : undefined);
    const viewOf = (request: TokenRequest, link: FlowLink): StepView => {
      let rpId: string | undefined;
      try {
        rpId = relyingPartyFor(request.hostname, deps);
      } catch {
        rpId = undefined;
      }
      return { ctx: ctx(), link, query: request.query ?? {}, rpId };
    };
    /** A step that is not the link's next owed one sends the customer to the one that is (or to the first page). */
    const elsewhere = (reply: FastifyReply, token: string, link: FlowLink, step: string) => {
      const next = owedSteps(link)[0]?.name;
      if (next === step) return undefined;
      return reply.code(303).header('location', next ? `/onboarding/${token}/${next}` : `/onboarding/${token}`).send();
    };

    scope.get(STEP_PATH, stepOptions, async (request: TokenRequest, reply) => {
      const link = opened.get(request)!;
      const step = request.params.step!;
      const page = pageOf(link, step);
      if (!page) return html(reply, 404, noStepPage());
      const moved = elsewhere(reply, request.params.token, link, step);
      if (moved) return moved;
      await served(request, link);
      return html(reply, 200, page.render(viewOf(request, link), EMPTY_FORM));
    });

    scope.post(STEP_PATH, { ...stepOptions, bodyLimit: MULTIPART_BODY_LIMIT, preParsing: sizeFirst }, async (request: TokenRequest, reply) => {
      const link = opened.get(request)!;
      const { token, step } = request.params as { token: string; step: string };
      const answer = (outcome: SaveOutcome) =>
        'completed' in outcome ? html(reply, 200, finalPage(outcome.completed)) : reply.code(303).header('location', `/onboarding/${token}/${outcome.next}`).send();
      try {
        if (step === 'finish') {
          if (owedSteps(link).length > 0) return elsewhere(reply, token, link, step);
          return answer(await withLiveLink(ctx(), token, async () => undefined));
        }
        const page = pageOf(link, step);
        if (!page) {
          if (bodyPending(request)) reply.header('connection', 'close');
          return html(reply, 404, noStepPage());
        }
        if (owedSteps(link)[0]?.name !== step) {
          if (bodyPending(request)) reply.header('connection', 'close');
          return elsewhere(reply, token, link, step);
        }
        const body = await readStepBody(request, page, link);
        try {
          return answer(await page.save(ctx(), token, body, link));
        } catch (err) {
          if (!(err instanceof ApiError) || err.status >= 500 || err.status === 404) throw err;
          // The save wrote nothing (its transaction rolled back): the form again, with every error.
          const again = await openFlowLink(ctx(), token);
          if (!('live' in again)) return html(reply, 410, closedPage(again.closed));
          const errors = err.options.errors?.length ? page.problems(err.options.errors, body, again.live) : [{ name: undefined, message: err.detail }];
          const form: FormState = { values: body.fields, errors };
          return html(reply, 422, page.render(viewOf(request, again.live), form));
        }
      } catch (err) {
        if (err instanceof LinkClosedError) return html(reply, 410, closedPage(err.closed));
        if (err instanceof FormRefused) {
          if (bodyPending(request)) reply.header('connection', 'close');
          return html(reply, err.status, refusedPage(err.status, err.reason));
        }
        throw err;
      }
    });
  });
}

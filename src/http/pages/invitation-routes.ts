import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { acceptOnPage, openInvitation, pageChallenge, type PageContext } from '../../domain/members/invitation-page.js';
import { ApiError } from '../../domain/errors.js';
import { ROLE_NAMES } from '../../domain/members/invitation-mail.js';
import type { FailureLimiter } from '../auth/failure-limiter.js';
import { bodyPending } from '../body-limits.js';
import { AuthenticatorSchema } from '../schemas/onboarding/users.js';
import { Text } from '../schemas/onboarding/common.js';
import type { Api, Deps } from '../types.js';
import { INVITATION_ICON, INVITATION_SCRIPT, INVITATION_STYLE } from './invitation-assets.js';
import { END_USER_MESSAGES, END_USER_UNAVAILABLE, invitationPage, invitationProblemPage, sandboxTermsPage } from './invitation-html.js';

/** Only this origin's script, style and fetches; no inline code, no frames, no form posts elsewhere. */
export const INVITATION_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const PAGE_HEADERS = {
  'content-security-policy': INVITATION_CSP,
  // The token is in the path: no Referer may carry it anywhere, and no cache may keep the page.
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** Where the invitation page links the service terms when SERVICE_TERMS_URL is not set (sandbox only). */
export const SANDBOX_TERMS_PATH = '/invitations/terms';

/** The token in these paths is the invitation's bearer secret: logged as [redacted] (secret-urls.ts). */
const SECRET_TOKEN = { secretParams: ['token'] };
const TokenParams = Type.Object({ token: Text(200) }, { additionalProperties: false });
const AcceptBody = Type.Object(
  { firstName: Text(100, { minLength: 1 }), lastName: Text(100, { minLength: 1 }), acceptTerms: Type.Literal(true), authenticator: AuthenticatorSchema },
  { additionalProperties: false },
);

/**
 * The hosted invitation page (docs/invitations.md#the-hosted-page), outside /v1 and unsigned: the token in the
 * path is the credential. GET /invitations/:token is the HTML page; its script asks registration-options for a
 * challenge and posts the browser's passkey to accept. Unknown tokens count as failed authentications of the
 * source address (the shared FailureLimiter: past AUTH_FAILURE_LIMIT a minute, 429).
 */
export async function registerInvitationPages(app: Api, deps: Deps, failures: FailureLimiter): Promise<void> {
  const ctx = (): PageContext => ({ db: deps.database, secrets: deps.secrets, policy: deps.policy, now: deps.clock() });
  /** An unknown token is a guess: counted, and past the limit answered 429 instead. */
  const guarded = async <T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw err instanceof ApiError && err.status === 404 ? failures.fail(request.ip, err) : err;
    }
  };
  /**
   * The page's script shows a problem's detail to the invitee: an end user's sentence, never the integrator's or the
   * operator's (a configuration problem such as WEBAUTHN_RP_IDS goes to the log, where an operator sees it).
   */
  const forInvitee = async <T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 400) throw err;
      const message = END_USER_MESSAGES[err.status];
      if (!message) request.log.error({ code: err.code, problem: err.detail }, 'the invitation page could not go on');
      throw new ApiError(err.code, message ?? END_USER_UNAVAILABLE, err.options.headers ? { headers: err.options.headers } : {});
    }
  };

  await app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>();
    scope.addHook('onRequest', async (_request, reply) => {
      reply.headers(PAGE_HEADERS);
    });

    scope.get('/invitations/assets/invitation.js', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').send(INVITATION_SCRIPT),
    );
    scope.get('/invitations/assets/invitation.css', { schema: { hide: true } }, async (_request, reply) => reply.type('text/css; charset=utf-8').send(INVITATION_STYLE));
    scope.get('/invitations/assets/icon.svg', { schema: { hide: true } }, async (_request, reply) => reply.type('image/svg+xml').send(INVITATION_ICON));

    scope.get('/invitations/:token', { schema: { hide: true, params: TokenParams }, config: SECRET_TOKEN }, async (request, reply) => {
      try {
        const { view } = await guarded(request, () => openInvitation(ctx(), request.params.token));
        return html(reply, 200, invitationPage(view, deps.config.serviceTermsUrl ?? SANDBOX_TERMS_PATH));
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        if (err.options.headers) reply.headers(err.options.headers);
        return html(reply, err.status, invitationProblemPage(err.status));
      }
    });

    // The sandbox's terms (a static route: it wins over the token's pattern, and no token is this word).
    scope.get(SANDBOX_TERMS_PATH, { schema: { hide: true } }, async (_request, reply) => html(reply, 200, sandboxTermsPage()));

    scope.get('/invitations/:token/registration-options', { schema: { hide: true, params: TokenParams }, config: SECRET_TOKEN }, async (request) =>
      forInvitee(request, async () => {
        const context = ctx();
        const { row, view } = await guarded(request, () => openInvitation(context, request.params.token));
        return {
          challenge: pageChallenge(context, row),
          rp: { id: relyingPartyFor(request.hostname, deps), name: view.integratorName },
          // No user exists until acceptance: the invitation's id is the passkey's user handle.
          user: { id: Buffer.from(row.id.replace(/-/g, ''), 'hex').toString('base64url'), name: row.email },
          pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
          timeout: 120_000,
          attestation: 'none',
          authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        };
      }),
    );

    // The token before the body: an unknown, expired or used link is answered from the URL, its body never read.
    const tokenFirst = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
      try {
        await forInvitee(request, () => guarded(request, () => openInvitation(ctx(), request.params.token)));
      } catch (err) {
        if (bodyPending(request)) reply.header('connection', 'close');
        throw err;
      }
    };
    scope.post('/invitations/:token/accept', { schema: { hide: true, params: TokenParams, body: AcceptBody }, config: SECRET_TOKEN, onRequest: tokenFirst }, async (request, reply) => {
      const { firstName, lastName, authenticator } = request.body;
      const accepted = await forInvitee(request, () => guarded(request, () => acceptOnPage(ctx(), request.params.token, { firstName, lastName, authenticator })));
      return reply.code(201).send({ status: accepted.invitation.status, role: accepted.member.role, roleName: ROLE_NAMES[accepted.member.role] });
    });
  });
}

function html(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

/** The first WEBAUTHN_RP_IDS entry the page's host is (or is under): the browser refuses any other. */
export function relyingPartyFor(hostname: string, deps: Deps): string {
  const host = hostname.replace(/:\d+$/, '').toLowerCase();
  const rpId = deps.policy.webauthn?.rpIds.find((id) => host === id || host.endsWith(`.${id}`));
  if (!rpId) throw new ApiError('invitations_unavailable', 'This page’s host is not under any WEBAUTHN_RP_IDS entry: passkeys cannot be registered here (INVITATION_BASE_URL, docs/invitations.md)');
  return rpId;
}

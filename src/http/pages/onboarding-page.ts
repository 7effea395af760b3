import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../domain/errors.js';
import { openLinkPage, type LinkPageView } from '../../domain/onboarding-links/link-page.js';
import type { FailureLimiter } from '../auth/failure-limiter.js';
import { Text } from '../schemas/onboarding/common.js';
import type { Api, Deps } from '../types.js';
import { escapeHtml, layout } from './invitation-html.js';
import { PAGE_HEADERS } from './invitation-routes.js';

// The hosted onboarding page (docs/onboarding-links.md#the-hosted-page), on the invitation page's base URL, its
// stylesheet and headers: the token in the path is the credential (logged [redacted]), no Referer leaves the page.

const REQUIREMENT_WORDS: Record<string, string> = {
  birthDate: 'your date of birth',
  nationality: 'your nationality',
  residentialAddress: 'your home address',
  'document.identity': 'an identity document (a passport, or both sides of a national id card)',
  'document.proofOfAddress': 'a proof of address (a recent utility bill or bank statement)',
};

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function openPage(view: LinkPageView): string {
  const e = escapeHtml;
  const owed = view.currentlyDue ?? (view.type === 'entity' ? [] : Object.keys(REQUIREMENT_WORDS));
  const items = owed.map((name) => `<li>${e(REQUIREMENT_WORDS[name] ?? name)}</li>`).join('\n');
  const what =
    view.type === 'entity'
      ? `<p>${e(view.integratorName)} asks for your company’s details and documents, and yours as its representative.</p>`
      : owed.length > 0
        ? `<p>${e(view.integratorName)} needs:</p>\n<ul id="requirements">\n${items}\n</ul>`
        : `<p>${e(view.integratorName)} needs nothing more from you right now.</p>`;
  const back = view.redirectUrl ? `\n<p><a id="return" href="${e(view.redirectUrl)}">Return to ${e(view.integratorName)}</a></p>` : '';
  return layout(
    `Onboarding with ${view.integratorName}`,
    `<h1 id="title" tabindex="-1">Onboarding with ${e(view.integratorName)}</h1>
${what}
<p>This link works once and until <time datetime="${e(view.expiresAt)}">${e(when(view.expiresAt))}</time>.</p>${back}`,
    false,
  );
}

const CLOSED: Record<string, [string, string]> = {
  completed: ['This onboarding link was already used', 'Each link works once. If you still need to give something, ask for a new link in the app that sent you here.'],
  revoked: ['This onboarding link was revoked', 'A newer link replaced it, or it was withdrawn. Ask for a new link in the app that sent you here.'],
  expired: ['This onboarding link expired', 'Links work for a short time only. Ask for a new link in the app that sent you here.'],
};
const UNKNOWN: [string, string] = ['This onboarding link is not valid', 'Check that you opened the whole link, or ask for a new one in the app that sent you here.'];
const TOO_MANY: [string, string] = ['Too many attempts', 'Too many invalid links were opened from your address. Wait a minute and try again.'];

const messagePage = ([title, text]: [string, string]) => layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`, false);

function html(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

/**
 * GET /onboarding/:token: 200 for a live link (opened the first time it is served), 410 for a used, revoked or
 * expired one saying which, 404 for an unknown one (counted as a failed authentication of the address, as the
 * invitation page's guesses are: past AUTH_FAILURE_LIMIT a minute, 429).
 */
export async function registerOnboardingPage(app: Api, deps: Deps, failures: FailureLimiter): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (_request, reply) => {
      reply.headers(PAGE_HEADERS);
    });
    scope.get(
      '/onboarding/:token',
      { schema: { hide: true, params: Type.Object({ token: Text(200) }, { additionalProperties: false }) }, config: { secretParams: ['token'] } },
      async (request, reply) => {
        const { token } = request.params as { token: string };
        try {
          const outcome = await openLinkPage({ db: deps.database, secrets: deps.secrets, now: deps.clock() }, token);
          if ('closed' in outcome) return html(reply, 410, messagePage(CLOSED[outcome.closed]!));
          return html(reply, 200, openPage(outcome.open));
        } catch (err) {
          if (!(err instanceof ApiError) || err.status !== 404) throw err;
          const counted = failures.fail(request.ip, err);
          if (counted instanceof ApiError && counted.status === 429) {
            if (counted.options.headers) reply.headers(counted.options.headers);
            return html(reply, 429, messagePage(TOO_MANY));
          }
          return html(reply, 404, messagePage(UNKNOWN));
        }
      },
    );
  });
}

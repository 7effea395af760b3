import type { FlowLink } from '../../../domain/onboarding-links/flow/flow-link.js';
import { owedSteps } from '../../../domain/onboarding-links/flow/steps.js';
import { entityOwedWords } from './entity-words.js';
import { e, page } from './html.js';

// The link's first page (GET /onboarding/<token>): who asks, what is owed, the expiry, and the way into the first
// step it still owes (or, when it owes nothing, a button that finishes it).

const REQUIREMENT_WORDS: Record<string, string> = {
  birthDate: 'your date of birth',
  nationality: 'your nationality',
  residentialAddress: 'your home address',
  'document.identity': 'an identity document (a passport, or both sides of a national id card)',
  'document.proofOfAddress': 'a proof of address (a recent utility bill or bank statement)',
};

/** What each step collects, in words, for a link with no user yet. */
export const STEP_WORDS: Record<string, string> = {
  terms: 'your acceptance of the service terms',
  details: 'your name, date of birth, nationality and home address',
  documents: 'an identity document and a proof of address',
  passkey: 'a passkey on this device, to approve your transactions',
};

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export function firstPage(link: FlowLink, token: string): string {
  const name = link.integratorName;
  const steps = owedSteps(link);
  const owed = link.row.type === 'entity' ? entityOwedWords(link, steps) : link.requirements ? link.requirements.currentlyDue.map((r) => REQUIREMENT_WORDS[r] ?? r) : steps.map((s) => STEP_WORDS[s.name] ?? s.name);
  if (link.row.type !== 'entity' && link.requirements && steps.some((s) => s.name === 'passkey')) owed.push(STEP_WORDS.passkey!);
  const items = owed.map((text) => `<li>${e(text)}</li>`).join('\n');
  const what =
    link.row.type === 'entity' && !link.user
      ? `<p>${e(name)} asks for your company’s details and documents, and yours as its representative.</p>`
      : owed.length > 0
        ? `<p>${e(name)} needs:</p>\n<ul id="requirements">\n${items}\n</ul>`
        : `<p>${e(name)} needs nothing more from you right now.</p>`;
  // The first owed step, relative to this page's URL (/onboarding/<token>): <token>/<step>.
  const next = steps[0]
    ? `<p><a id="start" class="button" href="${e(token)}/${e(steps[0].name)}">${link.row.termsAcceptedAt || link.user ? 'Continue' : 'Start'}</a></p>`
    : `<form method="post" action="${e(token)}/finish"><button type="submit" id="finish">Finish</button></form>`;
  const back = link.row.redirectUrl ? `\n<p><a id="return" href="${e(link.row.redirectUrl)}">Return to ${e(name)}</a></p>` : '';
  return page(
    `Onboarding with ${name}`,
    `<h1 id="title" tabindex="-1">Onboarding with ${e(name)}</h1>
${what}
<p>This link works once and until <time datetime="${e(link.row.expiresAt.toISOString())}">${e(when(link.row.expiresAt.toISOString()))}</time>. Each step is saved as you go: if you stop, a new link from ${e(name)} continues where you left.</p>
${next}${back}`,
  );
}

import type { FlowLink } from '../../../domain/onboarding-links/flow/flow-link.js';
import { e, page } from './html.js';

// The flow's last page, answered by the save that completed the link: what happens next, and the way back to the
// integrator's redirectUrl when the link has one.

const NEXT: Record<string, string> = {
  under_review: 'Your details and documents are being checked. This usually takes a short while; you will hear from {name} when your account is ready.',
  active: 'Your account is ready to use.',
  resubmission_requested: 'Your documents are with the team that asked for them again; you will hear from {name} when they are checked.',
};
const DEFAULT_NEXT = '{name} has what it asked for. It will tell you if anything else is needed.';

export function finalPage(link: FlowLink): string {
  const name = link.integratorName;
  const next = (NEXT[link.user?.verificationStatus ?? ''] ?? DEFAULT_NEXT).replace('{name}', name);
  const back = link.row.redirectUrl
    ? `<p><a id="return" class="button" href="${e(link.row.redirectUrl)}">Return to ${e(name)}</a></p>`
    : `<p>You can close this page.</p>`;
  return page(
    `Done – ${name}`,
    `<p class="integrator">${e(name)}</p>
<h1 id="title" tabindex="-1" autofocus>You are done</h1>
<p id="next">${e(next)}</p>
${back}`,
  );
}

import type { InvitationPageView } from '../../domain/members/invitation-page.js';
import { ROLE_DESCRIPTIONS } from '../../domain/members/invitation-mail.js';

// The hosted invitation page's HTML (docs/invitations.md#the-hosted-page): rendered on the server, every value
// escaped, no inline script or style (the CSP allows only this origin's files under /invitations/assets/).

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * A hosted page: `script` true for the invitation's script, or another same-origin script's path; `stylesheets` any
 * after the invitation's (the onboarding flow's own rules).
 */
export function layout(title: string, main: string, script: boolean | string, stylesheets: readonly string[] = []): string {
  const src = script === true ? '/invitations/assets/invitation.js' : script;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/invitations/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/invitations/assets/invitation.css">
${stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">\n`).join('')}${src ? `<script type="module" src="${escapeHtml(src)}"></script>\n` : ''}</head>
<body>
<main>
${main}
</main>
</body>
</html>
`;
}

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The invitation and the form that registers a passkey and accepts it; `termsUrl` is the terms the invitee accepts. */
export function invitationPage(view: InvitationPageView, termsUrl: string): string {
  const e = (s: string) => escapeHtml(s);
  const article = /^[aeiou]/.test(view.roleName) ? 'an' : 'a';
  return layout(
    `Join ${view.company} on ${view.integratorName}`,
    `<h1 id="title" tabindex="-1">Join ${e(view.company)}</h1>
<p id="summary">${e(view.inviter)} invited you to join <strong>${e(view.company)}</strong> on ${e(view.integratorName)} as ${article} <strong>${e(view.roleName)}</strong>.</p>
<dl>
<dt>Company</dt><dd id="company">${e(view.company)}</dd>
<dt>Role</dt><dd id="role"><strong>${e(view.roleName)}</strong>: ${e(ROLE_DESCRIPTIONS[view.role])}</dd>
<dt>Invited by</dt><dd id="inviter">${e(view.inviter)}</dd>
<dt>Your email</dt><dd id="email">${e(view.email)}</dd>
<dt>Expires</dt><dd><time datetime="${e(view.expiresAt)}">${e(when(view.expiresAt))}</time></dd>
</dl>
<noscript><p>Accepting needs JavaScript: your browser creates a passkey for this account.</p></noscript>
<form id="accept-form" novalidate>
<h2>Accept with a passkey</h2>
<p>Your device creates a passkey (fingerprint, face or screen lock) that you use to approve ${e(view.company)}’s transactions.</p>
<div class="field"><label for="firstName">First name</label>
<input id="firstName" name="firstName" autocomplete="given-name" required maxlength="100"></div>
<div class="field"><label for="lastName">Last name</label>
<input id="lastName" name="lastName" autocomplete="family-name" required maxlength="100"></div>
<div class="check"><input type="checkbox" id="terms" name="terms" required>
<label for="terms">I accept the <a href="${e(termsUrl)}" target="_blank" rel="noopener noreferrer">service terms</a> of ${e(view.integratorName)}</label></div>
<button type="submit" id="accept">Create passkey and accept</button>
</form>
<p id="status" role="status" aria-live="polite"></p>
<section id="next" hidden>
<h2>What next</h2>
<p>Open ${e(view.integratorName)} and sign in with ${e(view.email)}: ${e(view.company)}’s account is there. When a
transaction needs you, ${e(view.integratorName)} asks for the passkey you just created on this device. You can close
this page.</p>
</section>`,
    true,
  );
}

const MESSAGES: Record<number, [string, string]> = {
  404: ['This invitation link is not valid', 'Check that you opened the whole link from the email, or ask for a new invitation.'],
  409: ['This invitation was already used, or is no longer valid', 'Each link works once, and only while whoever invited you may still invite you. If you still need access, ask an owner of the account for a new invitation.'],
  410: ['This invitation expired', 'Invitations are valid for 7 days. Ask whoever invited you to send a new one.'],
  429: ['Too many attempts', 'Too many invalid links were opened from your address. Wait a minute and try again.'],
};

/** The sandbox's stand-in for the service terms (SERVICE_TERMS_URL names the real ones in production). */
export function sandboxTermsPage(): string {
  return layout(
    'Service terms (sandbox)',
    `<h1>Service terms (sandbox)</h1>
<p>This is a sandbox: its accounts, companies and money are fictitious, and accepting an invitation here binds nobody
to anything. A production deployment links its real service terms here (<code>SERVICE_TERMS_URL</code>).</p>`,
    false,
  );
}

/** What the page's script shows when the server could not go on: never a configuration detail (that goes to the log). */
export const END_USER_MESSAGES: Record<number, string> = {
  404: 'This invitation link is not valid. Check that you opened the whole link from the email, or ask for a new invitation.',
  409: 'This invitation was already used, or is no longer valid. If you still need access, ask an owner of the account for a new invitation.',
  410: 'This invitation expired. Ask whoever invited you to send a new one.',
  429: 'Too many attempts. Wait a minute and try again.',
};
export const END_USER_UNAVAILABLE = 'Invitations cannot be accepted here right now. Please try again later, or tell whoever invited you.';

/** The page for a link that does not open an invitation (unknown, used, revoked, expired, or too many guesses). */
export function invitationProblemPage(status: number): string {
  const [title, text] = MESSAGES[status] ?? ['Something went wrong', 'Please try again later.'];
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`, false);
}

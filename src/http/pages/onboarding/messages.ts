import { e, page } from './html.js';

// The flow's pages that are not a step: a link that no longer works (410 saying which), an unknown one (404), too
// many guesses (429), a body the page cannot take (4xx), and the server's own failure (500, never a detail).

const CLOSED: Record<string, [string, string]> = {
  completed: ['This onboarding link was already used', 'Each link works once. If you still need to give something, ask for a new link in the app that sent you here.'],
  revoked: ['This onboarding link was revoked', 'A newer link replaced it, or it was withdrawn. Ask for a new link in the app that sent you here.'],
  expired: ['This onboarding link expired', 'Links work for a short time only. Ask for a new link in the app that sent you here.'],
};
const UNKNOWN: [string, string] = ['This onboarding link is not valid', 'Check that you opened the whole link, or ask for a new one in the app that sent you here.'];
const TOO_MANY: [string, string] = ['Too many attempts', 'Too many invalid links were opened from your address. Wait a minute and try again.'];
const NO_STEP: [string, string] = ['This page does not exist', 'Go back to the link you were given: it shows what is still needed.'];
const FAILED: [string, string] = ['Something went wrong', 'Nothing was saved. Please try again in a moment.'];

const messagePage = ([title, text]: [string, string], extra = '') => page(title, `<h1 id="title" tabindex="-1">${e(title)}</h1>\n<p>${e(text)}</p>${extra}`);

export const closedPage = (status: string) => messagePage(CLOSED[status] ?? CLOSED.expired!);
export const unknownLinkPage = () => messagePage(UNKNOWN);
export const tooManyPage = () => messagePage(TOO_MANY);
export const noStepPage = () => messagePage(NO_STEP);
export const failedPage = () => messagePage(FAILED);

/** A submission the page cannot take (too large, not a form, unknown fields): what was wrong, nothing saved. */
export const refusedPage = (status: number, reason: string) =>
  messagePage([status === 413 ? 'The file or form is too large' : 'This form could not be read', `${reason} Nothing was saved.`], '\n<p><a href="">Back to the form</a></p>');

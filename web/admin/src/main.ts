import { announce } from './announce';
import { createApiClient, ApiProblem, type ApiClient } from './api';
import { byId, fill, h } from './dom';
import { installKeyboard } from './keyboard';
import { currentRoute, hrefFor, type Route } from './router';
import { forgetToken, storedToken, storeToken } from './session';
import { showShortcuts } from './shortcuts';
import type { Operator } from './types';
import { mountBankAccount } from './views/bank-account';
import { mountBankAccounts } from './views/bank-accounts';
import { mountCase } from './views/case';
import { lastQueueRoute, mountQueue } from './views/queue';
import { mountSignIn } from './views/sign-in';
import { mountWithdrawal } from './views/withdrawal';
import { lastWithdrawalsRoute, mountWithdrawals } from './views/withdrawals';

// Boot: sign in (or reuse this tab's token), then show the view the hash names. Views are mounted into <main>
// and return their own clean-up (polling, pending requests, blob URLs, key bindings).

const main = byId('main');
const sessionNav = byId('session');
const sectionsNav = byId('sections');
let unmount: () => void = () => {};
let signedIn: { api: ApiClient; operator: Operator } | null = null;

function mount(view: () => () => void): void {
  unmount();
  unmount = view();
}

function showRoute(): void {
  if (!signedIn) return;
  const { api, operator } = signedIn;
  const route = currentRoute();
  mount(() => {
    switch (route.name) {
      case 'case':
        return mountCase(main, api, route, operator);
      case 'bank-accounts':
        return mountBankAccounts(main, api);
      case 'bank-account':
        return mountBankAccount(main, api, route, operator);
      case 'withdrawals':
        return mountWithdrawals(main, api, route);
      case 'withdrawal':
        return mountWithdrawal(main, api, route);
      default:
        return mountQueue(main, api, route);
    }
  });
  showSection(route);
}

/** The header's links between the console's sections; the one in view (its list or one of its items) is current. */
function showSection(route: Route): void {
  const reviews = byId<HTMLAnchorElement>('nav-reviews');
  const bankAccounts = byId<HTMLAnchorElement>('nav-bank-accounts');
  const withdrawals = byId<HTMLAnchorElement>('nav-withdrawals');
  const inBankAccounts = route.name === 'bank-accounts' || route.name === 'bank-account';
  const inWithdrawals = route.name === 'withdrawals' || route.name === 'withdrawal';
  // Back to the queue as the officer left it (filters, page), and to the payouts with their filter.
  reviews.href = hrefFor(lastQueueRoute());
  withdrawals.href = hrefFor(lastWithdrawalsRoute());
  for (const [link, current] of [
    [reviews, !inBankAccounts && !inWithdrawals],
    [bankAccounts, inBankAccounts],
    [withdrawals, inWithdrawals],
  ] as const) {
    // "page" on the list itself, "true" while on one of its items.
    if (current) link.setAttribute('aria-current', route.name === 'queue' || route.name === 'bank-accounts' || route.name === 'withdrawals' ? 'page' : 'true');
    else link.removeAttribute('aria-current');
  }
}

function signOut(message?: string): void {
  forgetToken();
  signedIn = null;
  sessionNav.hidden = true;
  sectionsNav.hidden = true;
  mount(() => mountSignIn(main, { ...(message ? { message } : {}), onSignedIn: start }));
}

function start(token: string, operator: Operator): void {
  storeToken(token);
  const api = createApiClient(token, () => signOut('Your token is no longer accepted. Sign in again.'));
  signedIn = { api, operator };
  fill(byId('operator-name'), 'Signed in as ', h('strong', {}, operator.name));
  sessionNav.hidden = false;
  sectionsNav.hidden = false;
  showRoute();
}

async function boot(): Promise<void> {
  installKeyboard({ '?': showShortcuts });
  byId('shortcuts-button').addEventListener('click', showShortcuts);
  byId('sign-out').addEventListener('click', () => {
    signOut('Signed out.');
    announce('Signed out.');
  });
  window.addEventListener('hashchange', showRoute);

  const token = storedToken();
  if (!token) return signOut();
  try {
    start(token, await createApiClient(token, () => {}).whoami());
  } catch (err) {
    signOut(err instanceof ApiProblem && err.status !== 401 ? `Could not check your session: ${err.problem.detail ?? err.problem.title}` : 'Your session has ended. Sign in again.');
  }
}

void boot();

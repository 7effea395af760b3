import { announce } from './announce';
import { createApiClient, ApiProblem, type ApiClient } from './api';
import { byId, fill, h } from './dom';
import { installKeyboard } from './keyboard';
import { currentRoute, hrefFor, type Route } from './router';
import { forgetToken, storedToken, storeToken } from './session';
import { scrollCue } from './scroll-cue';
import { showShortcuts } from './shortcuts';
import type { Operator } from './types';
import type { Role } from './back-office-types';
import { mountBankAccount } from './views/bank-account';
import { mountBankAccounts } from './views/bank-accounts';
import { mountCase } from './views/case';
import { mountDeposit } from './views/deposit';
import { lastDepositsRoute, mountDeposits } from './views/deposits';
import { lastQueueRoute, mountQueue } from './views/queue';
import { mountSignIn } from './views/sign-in';
import { lastLedgerRoute, mountLedger } from './views/ledger';
import { mountLedgerAccount } from './views/ledger-account';
import { mountLedgerTransaction } from './views/ledger-transaction';
import { mountReconciliation } from './views/reconciliation';
import { lastReconciliationsRoute, mountReconciliations } from './views/reconciliations';
import { mountTreasury } from './views/treasury';
import { mountWithdrawal } from './views/withdrawal';
import { lastWithdrawalsRoute, mountWithdrawals } from './views/withdrawals';

// Boot: sign in (or reuse this tab's token), then show the view the hash names. Views are mounted into <main>
// and return their own clean-up (polling, pending requests, blob URLs, key bindings).

const ROLE_LABELS: Record<Role, string> = { reviewer: 'Reviewer', supervisor: 'Supervisor' };

const main = byId('main');
const sessionNav = byId('session');
const sectionsNav = byId('sections');
scrollCue(sectionsNav);
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
      case 'deposits':
        return mountDeposits(main, api, route);
      case 'deposit':
        return mountDeposit(main, api, route);
      case 'treasury':
        return mountTreasury(main, api);
      case 'ledger':
        return mountLedger(main, api, route);
      case 'ledger-account':
        return mountLedgerAccount(main, api, route);
      case 'ledger-transaction':
        return mountLedgerTransaction(main, api, route);
      case 'reconciliations':
        return mountReconciliations(main, api, route);
      case 'reconciliation':
        return mountReconciliation(main, api, route, operator);
      default:
        return mountQueue(main, api, route, operator);
    }
  });
  showSection(route);
}

/** The header's links between the console's sections; the one in view (its list or one of its items) is current. */
function showSection(route: Route): void {
  const reviews = byId<HTMLAnchorElement>('nav-reviews');
  const withdrawals = byId<HTMLAnchorElement>('nav-withdrawals');
  const deposits = byId<HTMLAnchorElement>('nav-deposits');
  const ledger = byId<HTMLAnchorElement>('nav-ledger');
  const reconciliation = byId<HTMLAnchorElement>('nav-reconciliation');
  // Back to the queue as the officer left it (filters, page), and to the payouts, deposits, ledger accounts and
  // reconciliation runs with their filters.
  reviews.href = hrefFor(lastQueueRoute());
  withdrawals.href = hrefFor(lastWithdrawalsRoute());
  deposits.href = hrefFor(lastDepositsRoute());
  ledger.href = hrefFor(lastLedgerRoute());
  reconciliation.href = hrefFor(lastReconciliationsRoute());
  // Each section's link, the routes in it, and whether the route is the section's own page ("page") rather than
  // one of its items ("true").
  const sections: [HTMLAnchorElement, boolean, boolean][] = [
    [byId('nav-bank-accounts'), route.name === 'bank-accounts' || route.name === 'bank-account', route.name === 'bank-accounts'],
    [withdrawals, route.name === 'withdrawals' || route.name === 'withdrawal', route.name === 'withdrawals'],
    [deposits, route.name === 'deposits' || route.name === 'deposit', route.name === 'deposits'],
    [byId('nav-treasury'), route.name === 'treasury', true],
    [ledger, route.name === 'ledger' || route.name === 'ledger-account' || route.name === 'ledger-transaction', route.name === 'ledger'],
    [reconciliation, route.name === 'reconciliations' || route.name === 'reconciliation', route.name === 'reconciliations'],
  ];
  const inReviews = !sections.some(([, current]) => current);
  for (const [link, current, own] of [[reviews, inReviews, route.name === 'queue'] as const, ...sections]) {
    if (current) link.setAttribute('aria-current', own ? 'page' : 'true');
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
  // The role decides what the console offers (a supervisor confirms proposals): said where the officer looks first.
  fill(byId('operator-name'), 'Signed in as ', h('strong', {}, operator.name), operator.role ? [' ', h('span', { class: 'role', id: 'operator-role' }, ROLE_LABELS[operator.role])] : null);
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

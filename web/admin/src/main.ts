import { announce } from './announce';
import { createApiClient, ApiProblem, type ApiClient } from './api';
import { byId, fill, h } from './dom';
import { installKeyboard } from './keyboard';
import { currentRoute } from './router';
import { forgetToken, storedToken, storeToken } from './session';
import { showShortcuts } from './shortcuts';
import type { Operator } from './types';
import { mountCase } from './views/case';
import { mountQueue } from './views/queue';
import { mountSignIn } from './views/sign-in';

// Boot: sign in (or reuse this tab's token), then show the view the hash names. Views are mounted into <main>
// and return their own clean-up (polling, pending requests, blob URLs, key bindings).

const main = byId('main');
const sessionNav = byId('session');
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
  mount(() => (route.name === 'case' ? mountCase(main, api, route, operator) : mountQueue(main, api, route)));
}

function signOut(message?: string): void {
  forgetToken();
  signedIn = null;
  sessionNav.hidden = true;
  mount(() => mountSignIn(main, { ...(message ? { message } : {}), onSignedIn: start }));
}

function start(token: string, operator: Operator): void {
  storeToken(token);
  const api = createApiClient(token, () => signOut('Your token is no longer accepted. Sign in again.'));
  signedIn = { api, operator };
  fill(byId('operator-name'), 'Signed in as ', h('strong', {}, operator.name));
  sessionNav.hidden = false;
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

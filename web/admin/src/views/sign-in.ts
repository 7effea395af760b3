import { ApiProblem, createApiClient } from '../api';
import { fill, h } from '../dom';
import type { Operator } from '../types';

/**
 * The operator pastes the bearer token `npm run -s admin -- operators create` printed; it is checked with
 * whoami before it is kept.
 */
export function mountSignIn(main: HTMLElement, options: { message?: string; onSignedIn: (token: string, operator: Operator) => void }): () => void {
  const input = h('input', {
    id: 'token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    'aria-describedby': 'token-hint token-error',
  });
  const error = h('p', { id: 'token-error', class: 'field-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Sign in');
  const form = h(
    'form',
    { class: 'card sign-in', novalidate: true, 'aria-labelledby': 'sign-in-title' },
    h('h1', { id: 'sign-in-title', tabindex: '-1' }, 'Sign in'),
    options.message ? h('p', { class: 'notice' }, options.message) : null,
    h('label', { for: 'token' }, 'Operator token'),
    input,
    h(
      'p',
      { id: 'token-hint', class: 'hint' },
      'Paste the token printed by ',
      h('code', {}, 'npm run -s admin -- operators create --name <your name>'),
      '. It is kept in this tab only and forgotten when the tab closes.',
    ),
    error,
    h('div', { class: 'actions' }, submit),
  );

  const showError = (message: string) => {
    error.textContent = message;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    input.removeAttribute('aria-invalid');
    const token = input.value.trim();
    if (!token) return showError('Paste your operator token.');
    if (!token.startsWith('op_')) return showError('Operator tokens start with op_.');
    submit.disabled = true;
    try {
      const operator = await createApiClient(token, () => {}).whoami();
      options.onSignedIn(token, operator);
    } catch (err) {
      if (err instanceof ApiProblem && err.status === 401) showError('This token is not accepted: it is unknown or its operator was deactivated.');
      else showError(err instanceof ApiProblem ? (err.problem.detail ?? err.problem.title) : 'Signing in failed.');
    } finally {
      submit.disabled = false;
    }
  });

  fill(main, form);
  document.title = 'Sign in · Review console';
  input.focus();
  return () => {};
}

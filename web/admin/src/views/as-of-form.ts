import { h } from '../dom';
import { fieldFromUtc, utcFromField } from '../ledger-format';

/**
 * The "as of" form of a ledger account's balances: a date and time in UTC (as the console shows every time), to the
 * second. Show reads the balances as they were then (`change` with the ISO time); Now goes back to the balances now.
 */
export function asOfForm(current: string | undefined, change: (asOf: string | undefined) => void): { element: HTMLFormElement; input: HTMLInputElement } {
  const input = h('input', { id: 'as-of', name: 'asOf', type: 'datetime-local', step: '1', value: current ? fieldFromUtc(current) : '', 'aria-describedby': 'as-of-hint as-of-error' });
  const error = h('p', { id: 'as-of-error', class: 'field-error', role: 'alert' });
  const now = current ? h('button', { type: 'button', class: 'button quiet', onclick: () => change(undefined) }, 'Now') : null;
  const element = h(
    'form',
    { class: 'filters as-of', 'aria-label': 'Balances as of a past time', novalidate: true },
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'as-of' }, 'As of (UTC)'),
      input,
      h('p', { id: 'as-of-hint', class: 'hint' }, 'The balances after the last change at or before this time.'),
      error,
    ),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Show balances then'), now),
  );
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    const at = utcFromField(input.value);
    if (!at) {
      error.textContent = 'Give a date and a time (UTC).';
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    error.textContent = '';
    input.removeAttribute('aria-invalid');
    change(at);
  });
  return { element, input };
}

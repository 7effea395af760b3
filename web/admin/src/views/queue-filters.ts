import { fill, h } from '../dom';
import { STATUS_LABELS } from '../format';
import { integratorNames } from '../integrators';
import { isUuid, navigate, type QueueRoute } from '../router';
import { STATUSES } from '../types';

/**
 * The queue's filters: status, and integrator (a name seen in the queue or an integrator ID; the admin API lists
 * no integrators). A change navigates, so the filters live in the address.
 */
export function createQueueFilters(route: QueueRoute): { element: HTMLFormElement; focus(): void; integratorsSeen(): void } {
  const keep = route.limit ? { limit: route.limit } : {};
  const statusSelect = h(
    'select',
    { id: 'status-filter', name: 'status' },
    STATUSES.map((s) => h('option', { value: s, selected: s === route.status }, STATUS_LABELS[s])),
  );
  statusSelect.addEventListener('change', () => navigate({ ...route, status: statusSelect.value as QueueRoute['status'] }));

  const integratorInput = h('input', {
    id: 'integrator-filter',
    name: 'integrator',
    list: 'integrator-options',
    placeholder: 'All integrators',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'integrator-hint integrator-error',
  });
  integratorInput.value = route.integratorId ? (integratorNames.get(route.integratorId) ?? route.integratorId) : '';
  const datalist = h('datalist', { id: 'integrator-options' });
  const integratorError = h('p', { id: 'integrator-error', class: 'field-error', role: 'alert' });

  const element = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter the queue', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'status-filter' }, 'Status'), statusSelect),
    h(
      'div',
      { class: 'field grow' },
      h('label', { for: 'integrator-filter' }, 'Integrator'),
      integratorInput,
      datalist,
      h('span', { id: 'integrator-hint', class: 'hint' }, 'A name seen in the queue, or an integrator ID'),
      integratorError,
    ),
    h(
      'div',
      { class: 'field actions' },
      h('button', { type: 'submit', class: 'button' }, 'Apply'),
      route.integratorId ? h('button', { type: 'button', class: 'button quiet', onclick: () => navigate({ name: 'queue', status: route.status, ...keep }) }, 'All integrators') : null,
    ),
  );
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = integratorInput.value.trim();
    const byName = [...integratorNames].find(([, name]) => name.toLowerCase() === value.toLowerCase());
    const integratorId = value === '' ? undefined : isUuid(value) ? value.toLowerCase() : byName?.[0];
    if (value !== '' && !integratorId) {
      integratorError.textContent = `No integrator named "${value}" has appeared in the queue; paste its ID instead.`;
      integratorInput.setAttribute('aria-invalid', 'true');
      integratorInput.focus();
      return;
    }
    navigate({ name: 'queue', status: statusSelect.value as QueueRoute['status'], ...(integratorId ? { integratorId } : {}), ...keep });
  });

  const integratorsSeen = () => {
    fill(
      datalist,
      [...integratorNames].sort((a, b) => a[1].localeCompare(b[1])).map(([id, name]) => h('option', { value: name, label: id })),
    );
    // A deep link names the integrator by ID until a page shows its name.
    if (route.integratorId && document.activeElement !== integratorInput && integratorNames.has(route.integratorId)) integratorInput.value = integratorNames.get(route.integratorId)!;
  };
  integratorsSeen();

  return { element, focus: () => statusSelect.focus(), integratorsSeen };
}

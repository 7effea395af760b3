import type { QueueFlag } from '../back-office-types';
import { fill, h } from '../dom';
import { STATUS_LABELS } from '../format';
import { integratorNames } from '../integrators';
import { isUuid, navigate, type QueueRoute } from '../router';
import { STATUSES } from '../types';

export const FLAG_LABELS: Record<QueueFlag, string> = {
  open_hits: 'Open screening hits',
  error_findings: 'Error findings',
  duplicates: 'Duplicates',
  proposal_pending: 'Awaiting confirmation',
};

const select = (id: string, name: string, options: [string, string][], value: string | undefined) =>
  h('select', { id, name }, options.map(([v, label]) => h('option', { value: v, selected: v === (value ?? '') }, label)));

/**
 * The queue's filters: status (none: the open cases; with a search, every record whatever its status), flag, who
 * holds the case, search text, and integrator (a name seen in the queue or an integrator ID; the admin API lists no
 * integrators). A change navigates, so the filters live in the address.
 */
export function createQueueFilters(route: QueueRoute): { element: HTMLFormElement; focus(): void; integratorsSeen(): void } {
  const keep = route.limit ? { limit: route.limit } : {};
  const statusSelect = select('status-filter', 'status', [['', 'Open cases'], ...STATUSES.map((s): [string, string] => [s, STATUS_LABELS[s]])], route.status);
  const flagSelect = select('flag-filter', 'flag', [['', 'Any'], ...Object.entries(FLAG_LABELS)], route.flag);
  const assigneeSelect = select('assignee-filter', 'assignee', [['', 'Anyone'], ['me', 'Mine'], ['unassigned', 'Unassigned']], route.assignee);
  const search = h('input', { id: 'search-filter', name: 'q', type: 'search', placeholder: 'Name, email, ID, document number', autocomplete: 'off', spellcheck: 'false', maxlength: '200' });
  search.value = route.q ?? '';

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

  const field = (id: string, label: string, control: HTMLElement, grow = false) => h('div', { class: grow ? 'field grow' : 'field' }, h('label', { for: id }, label), control);
  const element = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter the queue', novalidate: true },
    field('status-filter', 'Status', statusSelect),
    field('flag-filter', 'Flag', flagSelect),
    field('assignee-filter', 'Assigned to', assigneeSelect),
    field('search-filter', 'Search', search, true),
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
      route.integratorId ? h('button', { type: 'button', class: 'button quiet', onclick: () => navigate({ ...route, integratorId: undefined }) }, 'All integrators') : null,
    ),
  );

  /** The route the form describes now; undefined when the integrator named is unknown (the field says so). */
  function chosen(): QueueRoute | undefined {
    const value = integratorInput.value.trim();
    const byName = [...integratorNames].find(([, name]) => name.toLowerCase() === value.toLowerCase());
    const integratorId = value === '' ? undefined : isUuid(value) ? value.toLowerCase() : byName?.[0];
    if (value !== '' && !integratorId) {
      integratorError.textContent = `No integrator named "${value}" has appeared in the queue; paste its ID instead.`;
      integratorInput.setAttribute('aria-invalid', 'true');
      integratorInput.focus();
      return undefined;
    }
    const q = search.value.trim();
    return {
      name: 'queue',
      ...(statusSelect.value ? { status: statusSelect.value as NonNullable<QueueRoute['status']> } : {}),
      ...(flagSelect.value ? { flag: flagSelect.value as QueueFlag } : {}),
      ...(assigneeSelect.value ? { assignee: assigneeSelect.value as NonNullable<QueueRoute['assignee']> } : {}),
      ...(q ? { q } : {}),
      ...(integratorId ? { integratorId } : {}),
      ...keep,
    };
  }
  const go = () => {
    const next = chosen();
    if (next) navigate(next);
  };
  for (const s of [statusSelect, flagSelect, assigneeSelect]) s.addEventListener('change', go);
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    go();
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

import { announce } from '../announce';
import { ApiProblem } from '../api';
import { fill, h } from '../dom';
import { setPageBindings } from '../keyboard';
import { timeOfDay } from '../format';
import { poll } from '../poller';

// What the console's refreshed lists share (the review queue, bank accounts, withdrawals): a keyboard selection
// over the table's rows, and a load that redraws only when the answer changed.

/**
 * Moves the selection to `index` (clamped to the rows there are): marks that row for sight and for screen readers,
 * focuses its link when asked, and returns it; undefined when the list is empty.
 */
export function markSelected(tbody: HTMLElement, rowSelector: string, index: number, focus: boolean): { index: number; row: HTMLTableRowElement } | undefined {
  const rows = [...tbody.querySelectorAll<HTMLTableRowElement>(rowSelector)];
  if (rows.length === 0) return undefined;
  const selected = Math.max(0, Math.min(rows.length - 1, index));
  rows.forEach((row, i) => {
    row.classList.toggle('selected', i === selected);
    if (i === selected) row.setAttribute('aria-current', 'true');
    else row.removeAttribute('aria-current');
  });
  const row = rows[selected]!;
  if (focus) row.querySelector<HTMLAnchorElement>('a.row-link')?.focus();
  row.scrollIntoView({ block: 'nearest' });
  return { index: selected, row };
}

/** j/k and the arrows move the selection, Enter opens it. */
export function listKeys(move: (by: 1 | -1) => void, open: () => void): Record<string, () => void> {
  return { j: () => move(1), ArrowDown: () => move(1), k: () => move(-1), ArrowUp: () => move(-1), Enter: open };
}

/**
 * Next and previous page of a keyset-paged list (n and p): `cursors` is the stack of the `startingAfter` of the pages
 * up to the one shown (null for the first). Says when there is no page that way; after the load, which page it is.
 */
export function pageTurner(options: {
  /** Read at each turn (a view may start a fresh stack). */
  cursors: () => (string | null)[];
  page: () => { data: unknown[]; hasMore: boolean; nextCursor: string | null } | null;
  /** Forgets the selected row before another page loads. */
  clearSelection: () => void;
  load: () => Promise<void>;
  /** What the rows are, plural ("deposits"). */
  noun: string;
}): (direction: 1 | -1) => void {
  return (direction) => {
    const page = options.page();
    const cursors = options.cursors();
    if (direction === 1) {
      if (!page?.hasMore || !page.nextCursor) return announce('This is the last page.');
      cursors.push(page.nextCursor);
    } else {
      if (cursors.length <= 1) return announce('This is the first page.');
      cursors.pop();
    }
    options.clearSelection();
    void options.load().then(
      () => announce(`Page ${cursors.length}: ${options.page()?.data.length ?? 0} ${options.noun}.`),
      () => {},
    );
  };
}

/**
 * Loads a list's page, cancelling the one before. Every answer goes to `received`; `show` runs only when the answer
 * differs from the last one shown (or focus is asked for), so polling keeps focus and selection where they are.
 * A failure is shown in `problem` ("The <what> could not be loaded.") and rethrown.
 */
export function liveLoader<T>(options: {
  table: HTMLElement;
  problem: HTMLElement;
  updated: HTMLElement;
  what: string;
  fetch(signal: AbortSignal): Promise<T>;
  received(result: T): void;
  show(focus: boolean): void;
}): { load(focus: boolean): Promise<void>; abort(): void } {
  let controller = new AbortController();
  let loaded = '';
  return {
    async load(focus) {
      controller.abort();
      controller = new AbortController();
      options.table.setAttribute('aria-busy', 'true');
      try {
        const result = await options.fetch(controller.signal);
        options.problem.hidden = true;
        options.received(result);
        const fingerprint = JSON.stringify(result);
        if (fingerprint !== loaded || focus) {
          loaded = fingerprint;
          options.show(focus);
        } else {
          options.updated.textContent = `Updated ${timeOfDay()}`;
        }
      } catch (err) {
        if (err instanceof DOMException && err.name === 'AbortError') return;
        const p = err instanceof ApiProblem ? err.problem : { title: 'Error', detail: String(err) };
        fill(options.problem, h('strong', {}, `The ${options.what} could not be loaded. `), p.detail ?? p.title);
        options.problem.hidden = false;
        throw err;
      } finally {
        options.table.removeAttribute('aria-busy');
      }
    },
    abort() {
      controller.abort();
    },
  };
}

/**
 * Loads one record of a detail page (a case, a bank account, a payout), cancelling the load before: `show` runs when
 * the record differs from the one shown. A failure is shown in `problem`; a 404 says there is no such `noun` and
 * hides the page's `layout`.
 */
export function liveRecord<T>(options: {
  problem: HTMLElement;
  layout: HTMLElement;
  noun: string;
  fetch(signal: AbortSignal): Promise<T>;
  show(record: T): void;
}): { refresh(): Promise<void>; abort(): void } {
  let controller = new AbortController();
  let fingerprint = '';
  return {
    async refresh() {
      controller.abort();
      controller = new AbortController();
      try {
        const record = await options.fetch(controller.signal);
        options.problem.hidden = true;
        const next = JSON.stringify(record);
        if (next !== fingerprint) {
          fingerprint = next;
          options.show(record);
        }
      } catch (err) {
        if (err instanceof DOMException && err.name === 'AbortError') return;
        const p = err instanceof ApiProblem ? err.problem : { title: 'Error', detail: String(err), status: 0 };
        fill(options.problem, h('strong', {}, p.status === 404 ? `No such ${options.noun}. ` : `The ${options.noun} could not be loaded. `), p.detail ?? p.title);
        options.problem.hidden = false;
        if (p.status === 404) options.layout.hidden = true;
        throw err;
      }
    },
    abort() {
      controller.abort();
    },
  };
}

/**
 * Shows a detail page's record and keeps it current: the first load (then the page's heading takes focus, where a
 * screen reader and the keyboard start), a refresh every `intervalMs`. The returned stop ends both, runs `alsoStop`
 * (the page's own widgets) and clears the page's keys.
 */
export function followRecord(record: { refresh(): Promise<void>; abort(): void }, title: HTMLElement, intervalMs: number, alsoStop: () => void = () => {}): () => void {
  void record.refresh().then(
    () => title.focus(),
    () => {},
  );
  const stopPolling = poll(record.refresh, intervalMs);
  return () => {
    stopPolling();
    record.abort();
    alsoStop();
    setPageBindings({});
  };
}

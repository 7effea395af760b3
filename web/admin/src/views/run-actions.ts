import { announce } from '../announce';
import { ApiProblem, type ApiClient } from '../api';
import { append, h } from '../dom';
import { runCounts } from '../ledger-format';
import type { Run } from '../reconciliation-types';
import { hrefFor, navigate } from '../router';
import type { Problem } from '../types';
import { showProblem } from './form-feedback';

/** A problem with the extension members the API adds (statement_already_imported names the first run's `runId`). */
type ProblemWithRun = Problem & { runId?: string | null };

const failure = (err: unknown): ProblemWithRun => (err instanceof ApiProblem ? err.problem : { title: 'The reconciliation could not be run', status: 0, detail: String(err) });

/** "1 break · 4 holdings": what a run found, for the announcement after it. */
const said = (run: Run) => `${run.kind === 'chain' ? 'Chain' : 'Bank'} reconciliation done: ${runCounts(run.kind, run.summary) || 'nothing to report'}.`;

/**
 * The two ways an operator starts a run: against the chain (one button), or against the bank with a camt.053 statement
 * (a file read as text here and sent as it is). The server decides; its problem is shown as it words it, a field's
 * error beside the file field too, and a statement imported already links to the run that imported it. A run done
 * opens its page.
 */
export function runActions(api: ApiClient): HTMLElement {
  let busy = false;
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true, id: 'run-problem' });
  const chainButton = h('button', { type: 'button', class: 'button primary', id: 'run-chain' }, 'Run against the chain');
  const file = h('input', { id: 'statement-file', name: 'statement', type: 'file', accept: '.xml,application/xml,text/xml', 'aria-describedby': 'statement-hint statement-error' });
  const fileError = h('p', { id: 'statement-error', class: 'field-error', role: 'alert' });
  const upload = h('button', { type: 'submit', class: 'button' }, 'Upload and reconcile');
  const form = h(
    'form',
    { class: 'statement-upload', 'aria-label': 'Reconcile a bank statement', novalidate: true },
    h('label', { for: 'statement-file' }, 'Bank statement (camt.053 XML)'),
    file,
    h('p', { id: 'statement-hint', class: 'hint' }, 'The treasury bank account’s statement: its booked lines are matched to the deposits, payouts and returns the service expects. The same file twice is refused.'),
    fileError,
    h('div', { class: 'actions' }, upload),
  );

  function setBusy(next: boolean): void {
    busy = next;
    chainButton.disabled = next;
    upload.disabled = next;
    form.setAttribute('aria-busy', String(next));
  }
  function clear(): void {
    problem.hidden = true;
    fileError.textContent = '';
    file.removeAttribute('aria-invalid');
  }
  function fieldError(message: string): void {
    fileError.textContent = message;
    file.setAttribute('aria-invalid', 'true');
    file.focus();
  }

  async function run(body: Parameters<ApiClient['runReconciliation']>[0]): Promise<void> {
    setBusy(true);
    try {
      const done = await api.runReconciliation(body);
      announce(said(done));
      navigate({ name: 'reconciliation', runId: done.runId });
    } catch (err) {
      const p = failure(err);
      showProblem(problem, p);
      const onStatement = p.errors?.find((e) => e.pointer === '/statement');
      if (onStatement) fieldError(`The statement file: ${onStatement.detail}`);
      if (p.code === 'statement_already_imported' && p.runId) append(problem, h('p', {}, h('a', { href: hrefFor({ name: 'reconciliation', runId: p.runId }) }, 'Open the run that imported it')));
    } finally {
      setBusy(false);
    }
  }

  chainButton.addEventListener('click', () => {
    if (busy) return;
    clear();
    void run({ kind: 'chain' });
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy) return;
    clear();
    const chosen = file.files?.[0];
    if (!chosen) return fieldError('Choose the statement file to upload.');
    void chosen.text().then(
      (statement) => (statement.trim() ? run({ kind: 'bank', statement }) : fieldError('The statement file is empty.')),
      () => fieldError('The file could not be read.'),
    );
  });

  return h(
    'section',
    { class: 'card run-actions', 'aria-labelledby': 'run-actions-title' },
    h('h2', { id: 'run-actions-title' }, 'Run a reconciliation'),
    h(
      'div',
      { class: 'run-ways' },
      h(
        'div',
        { class: 'run-way' },
        h('h3', {}, 'Against the chain'),
        h('p', { class: 'hint' }, 'Every treasury and custodial wallet holding at the last final block, against the ledger at that block.'),
        h('div', { class: 'actions' }, chainButton),
      ),
      h('div', { class: 'run-way' }, h('h3', {}, 'Against the bank'), form),
    ),
    problem,
  );
}

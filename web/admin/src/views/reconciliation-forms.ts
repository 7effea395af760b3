import { announce } from '../announce';
import { ApiProblem, type ApiClient } from '../api';
import { h } from '../dom';
import { EXPECTED_KIND_LABELS, ledgerAmount } from '../ledger-format';
import { EXPECTED_KINDS, type ExpectedKind, type ReconciliationBreak, type ReconciliationException } from '../reconciliation-types';
import { reasonFeedback, showProblem } from './form-feedback';

/** As the server's schema: a note of 1 to 1000 characters, not blank. */
const MAX_NOTE = 1000;

export interface ItemContext {
  api: ApiClient;
  runId: string;
  /**
   * Reloads the run (after an action, or a 404 or 409 that says the item moved); after an action done, the focus goes
   * to the item (`focusOn`), whose form is gone.
   */
  reload(focusOn: string | null): Promise<void>;
}

/** A note field with its label, hint and inline error (ids made from the item's). */
function noteField(id: string, label: string, hint: string) {
  const textarea = h('textarea', { id, name: 'note', rows: '2', maxlength: String(MAX_NOTE), 'aria-describedby': `${id}-hint ${id}-error` });
  const error = h('p', { id: `${id}-error`, class: 'field-error', role: 'alert' });
  const element = h('div', { class: 'field' }, h('label', { for: id }, label), textarea, h('p', { id: `${id}-hint`, class: 'hint' }, hint), error);
  return { element, textarea, ...reasonFeedback(textarea, error) };
}

/** Ctrl+Enter in a form's note sends the form, as in the other forms of the console. */
function submitOnCtrlEnter(form: HTMLFormElement, textarea: HTMLTextAreaElement): void {
  textarea.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
}

/**
 * Sends an action: its problem shown as the server words it in the item's box; after success, or a 404 or 409 (the
 * item was worked or is gone), the run is reloaded to show where the item stands.
 */
async function act(ctx: ItemContext, itemId: string, problem: HTMLElement, form: HTMLFormElement, call: () => Promise<unknown>, said: string): Promise<void> {
  problem.hidden = true;
  const buttons = [...form.querySelectorAll('button')];
  for (const b of buttons) b.disabled = true;
  form.setAttribute('aria-busy', 'true');
  try {
    await call();
    announce(said);
    await ctx.reload(itemId);
  } catch (err) {
    const p = err instanceof ApiProblem ? err.problem : { title: 'The action failed', status: 0, detail: String(err) };
    showProblem(problem, p);
    if (p.status === 404 || p.status === 409) await ctx.reload(null).catch(() => {});
  } finally {
    for (const b of buttons) b.disabled = false;
    form.removeAttribute('aria-busy');
  }
}

/** An open break's form: a required note, and whether to post the difference to the ledger. */
export function breakForm(ctx: ItemContext, b: ReconciliationBreak, problem: HTMLElement): HTMLFormElement {
  const id = `break-${b.breakId}`;
  const note = noteField(`${id}-note`, 'Note (required)', 'What the difference was: who funded the wallet, and why.');
  const adjust = h('input', { id: `${id}-adjust`, name: 'adjust', type: 'checkbox' });
  const difference = ledgerAmount(b.difference.amount, b.asset.symbol, { plus: true });
  const form = h(
    'form',
    { class: 'item-form', 'aria-label': 'Resolve this break', novalidate: true },
    note.element,
    h('div', { class: 'check' }, adjust, h('label', { for: `${id}-adjust` }, `Adjust the ledger: post the difference (${difference}) against adjustments`)),
    h('p', { class: 'hint' }, 'Unticked, the break is closed with the note alone, and the next run reports it again if it is still there.'),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button primary' }, 'Resolve break')),
  );
  submitOnCtrlEnter(form, note.textarea);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    note.clear();
    const text = note.textarea.value.trim();
    if (!text) return note.show('A note is required to resolve a break: say what the difference was.');
    const body = { note: text, adjust: adjust.checked };
    const said = body.adjust ? `Break resolved: ${difference} posted to the ledger against adjustments.` : 'Break resolved with the note; the ledger is unchanged.';
    void act(ctx, b.breakId, problem, form, () => ctx.api.resolveBreak(ctx.runId, b.breakId, body), said);
  });
  return form;
}

/** The kind a line most likely is: its expected movement's, else a credit's deposit and a debit's payout. */
function likelyKind(e: ReconciliationException): ExpectedKind {
  if (e.expected) return e.expected.kind;
  if (e.line?.isReturn) return 'payout_return';
  return e.line?.direction === 'debit' ? 'payout' : 'deposit';
}

/** An open exception's two ways out: matched by hand to a movement (kind and reference), or resolved with a note. */
export function exceptionForms(ctx: ItemContext, e: ReconciliationException, problem: HTMLElement): HTMLElement {
  const id = `exception-${e.exceptionId}`;
  const kind = h('select', { id: `${id}-kind`, name: 'kind' }, EXPECTED_KINDS.map((k) => h('option', { value: k, selected: k === likelyKind(e) }, EXPECTED_KIND_LABELS[k])));
  const reference = h('input', { id: `${id}-reference`, name: 'reference', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: '64', placeholder: 'DEP-… or WDR-…', value: e.expected?.reference ?? '', 'aria-describedby': `${id}-reference-error` });
  const referenceError = h('p', { id: `${id}-reference-error`, class: 'field-error', role: 'alert' });
  const matchNote = noteField(`${id}-match-note`, 'Note (optional)', 'Why the line is that movement (a mistyped reference, an amount accepted).');
  const match = h(
    'form',
    { class: 'item-form', 'aria-label': 'Match by hand', novalidate: true },
    h('h4', {}, 'Match by hand'),
    h('div', { class: 'field-row' }, h('div', { class: 'field' }, h('label', { for: `${id}-kind` }, 'Movement'), kind), h('div', { class: 'field grow' }, h('label', { for: `${id}-reference` }, 'Reference'), reference, referenceError)),
    matchNote.element,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button primary' }, 'Match')),
  );
  submitOnCtrlEnter(match, matchNote.textarea);
  match.addEventListener('submit', (event) => {
    event.preventDefault();
    referenceError.textContent = '';
    reference.removeAttribute('aria-invalid');
    matchNote.clear();
    const ref = reference.value.trim();
    if (!ref) {
      referenceError.textContent = 'A reference is required: the deposit’s DEP-… or the payout’s WDR-….';
      reference.setAttribute('aria-invalid', 'true');
      reference.focus();
      return;
    }
    const text = matchNote.textarea.value.trim();
    const body = { kind: kind.value as ExpectedKind, reference: ref, ...(text ? { note: text } : {}) };
    void act(ctx, e.exceptionId, problem, match, () => ctx.api.matchException(ctx.runId, e.exceptionId, body), `Matched by hand to ${EXPECTED_KIND_LABELS[body.kind].toLowerCase()} ${ref}.`);
  });

  const resolveNote = noteField(`${id}-resolve-note`, 'Note (required)', 'What the line is: a bank fee, interest, a line explained elsewhere.');
  const resolve = h(
    'form',
    { class: 'item-form', 'aria-label': 'Resolve with a note', novalidate: true },
    h('h4', {}, 'Or resolve with a note'),
    resolveNote.element,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button' }, 'Resolve exception')),
  );
  submitOnCtrlEnter(resolve, resolveNote.textarea);
  resolve.addEventListener('submit', (event) => {
    event.preventDefault();
    resolveNote.clear();
    const text = resolveNote.textarea.value.trim();
    if (!text) return resolveNote.show('A note is required to resolve an exception: say what the line is.');
    void act(ctx, e.exceptionId, problem, resolve, () => ctx.api.resolveException(ctx.runId, e.exceptionId, { note: text }), 'Exception resolved with the note.');
  });
  return h('div', { class: 'item-forms' }, match, resolve);
}

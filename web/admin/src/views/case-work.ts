import { announce } from '../announce';
import { ApiProblem, type ApiClient } from '../api';
import { fill, h } from '../dom';
import type { CaseRoute } from '../router';
import type { Case, Operator } from '../types';
import { reasonFeedback, showProblem } from './form-feedback';

/**
 * Who works the case (claim and release) and the officers' notes, which are appended to the timeline and never
 * edited. A case reopened on an active customer (a screening hit, money from a listed address) is closed here too,
 * with the note as its reason: the customer stays as they are.
 */
export function createCaseWork(api: ApiClient, route: CaseRoute, operator: Operator, refresh: () => Promise<void>): { element: HTMLElement; update(c: Case): void } {
  const { subjectType, subjectId } = route;
  const assigneeLine = h('p', { id: 'assignee' });
  const claim = h('button', { type: 'button', class: 'button', id: 'claim', onclick: () => void act('claim') }, 'Claim');
  const release = h('button', { type: 'button', class: 'button quiet', id: 'release', onclick: () => void act('release') }, 'Release');
  const note = h('textarea', { id: 'note-body', name: 'note', rows: '3', 'aria-describedby': 'note-hint note-error' });
  const noteError = h('p', { id: 'note-error', class: 'field-error', role: 'alert' });
  const feedback = reasonFeedback(note, noteError);
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const addNote = h('button', { type: 'submit', class: 'button' }, 'Add note');
  const close = h('button', { type: 'button', class: 'button', id: 'close-case', hidden: true, onclick: () => void closeCase() }, 'Close case with this note');
  const form = h(
    'form',
    { class: 'note-form', novalidate: true },
    h('label', { for: 'note-body' }, 'Add a note'),
    note,
    h('p', { id: 'note-hint', class: 'hint' }, 'Notes are added to the timeline and cannot be edited or deleted.'),
    noteError,
    h('div', { class: 'decision-buttons' }, addNote, close),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submitNote();
  });
  const element = h(
    'section',
    { class: 'card case-work', 'aria-labelledby': 'work-title' },
    h('h2', { id: 'work-title' }, 'Assignment and notes'),
    h('div', { class: 'assignment' }, assigneeLine, claim, release),
    form,
    problem,
  );

  let busy = false;
  async function run(what: string, task: () => Promise<void>): Promise<void> {
    if (busy) return;
    busy = true;
    problem.hidden = true;
    element.setAttribute('aria-busy', 'true');
    try {
      await task();
      await refresh().catch(() => {});
    } catch (err) {
      showProblem(problem, err instanceof ApiProblem ? err.problem : { title: `${what} failed`, status: 0, detail: String(err) });
      if (err instanceof ApiProblem && err.status === 409) void refresh().catch(() => {});
    } finally {
      busy = false;
      element.removeAttribute('aria-busy');
    }
  }

  const act = (which: 'claim' | 'release') =>
    run(which === 'claim' ? 'The claim' : 'The release', async () => {
      await (which === 'claim' ? api.claim(subjectType, subjectId) : api.release(subjectType, subjectId));
      announce(which === 'claim' ? 'You claimed the case.' : 'You released the case.');
    });

  /** The note's text, or null (and the field says it is required). */
  function noteText(what: string): string | null {
    feedback.clear();
    const text = note.value.trim();
    if (!text) feedback.show(`Write a note ${what}.`);
    return text || null;
  }

  async function submitNote(): Promise<void> {
    const body = noteText('first');
    if (!body) return;
    await run('The note', async () => {
      await api.addNote(subjectType, subjectId, body);
      note.value = '';
      announce('Note added to the timeline.');
    });
  }

  async function closeCase(): Promise<void> {
    const body = noteText('to say why the case is closed');
    if (!body) return;
    await run('Closing the case', async () => {
      await api.closeCase(subjectType, subjectId, { note: body });
      note.value = '';
      announce('Case closed: the customer stays active.');
    });
  }

  return {
    element,
    update(c) {
      const mine = c.assignee?.operatorId === operator.operatorId;
      fill(assigneeLine, c.assignee ? (mine ? 'Claimed by you.' : ['Claimed by ', h('strong', {}, c.assignee.name), '.']) : 'Nobody has claimed this case.');
      // A case another officer holds is theirs: the server refuses the claim (case_claimed), so it is not offered.
      claim.hidden = mine || c.assignee === undefined;
      claim.disabled = !!c.assignee && !mine;
      // A supervisor may free a case another officer holds (case_not_held answers anyone else).
      release.hidden = !(mine || (c.assignee && operator.role === 'supervisor'));
      close.hidden = !c.openReason || c.verificationStatus !== 'active';
    },
  };
}

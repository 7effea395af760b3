import { announce } from '../announce';
import { ApiProblem, type ApiClient } from '../api';
import type { Disposition, Hit, HitExplanation, HitField, ScoreAdjustmentKind } from '../back-office-types';
import { fill, h } from '../dom';
import { birthDate, dateTime } from '../format';
import { reasonFeedback, showProblem } from './form-feedback';

export const HIT_STATUS_LABELS: Record<Hit['status'], string> = { open: 'Open', true_match: 'True match', false_positive: 'False positive', cleared: 'Cleared' };
const DISPOSITIONS: [Disposition, string, string][] = [
  ['true_match', 'True match', 'danger'],
  ['false_positive', 'False positive', ''],
];

const ENTRY_TYPES: Record<Hit['entryType'], string> = { individual: 'Individual', entity: 'Entity', vessel: 'Vessel', aircraft: 'Aircraft', unknown: 'Type not given' };

interface HitCard {
  element: HTMLElement;
  /** Kept across refreshes, so a note being typed stays. */
  form: HTMLElement;
  shown: string;
}

/** Agrees, differs, or not compared (the list or the customer has no such detail). */
function agreement(hit: Hit, field: HitField): HTMLElement {
  if (hit.agreed.includes(field)) return h('span', { class: 'tag tag-agree' }, 'agrees');
  if (hit.conflicting.includes(field)) return h('span', { class: 'tag tag-differ' }, 'differs');
  return h('span', { class: 'tag' }, 'not compared');
}

const list = (values: string[]) => (values.length ? values.join(', ') : h('span', { class: 'muted' }, 'none given'));

/** The entry and the customer side by side: each row the listed value, the customer's, and whether they agree. */
function comparison(hit: Hit): HTMLElement {
  const row = (label: string, field: HitField, listed: HTMLElement | string, customer: HTMLElement | string) =>
    h('tr', { dataset: { field } }, h('th', { scope: 'row' }, label, h('br'), agreement(hit, field)), h('td', {}, listed), h('td', {}, customer));
  const others = hit.aliases.filter((a) => a.aliasType !== null || a.name !== hit.listedName);
  const aliases = others.length ? h('ul', { class: 'aliases' }, others.map((a) => h('li', {}, a.name, a.aliasType ? h('span', { class: 'muted' }, ` (${a.aliasType})`) : null))) : null;
  return h(
    'table',
    { class: 'hit-compare hit-sides' },
    h('caption', { class: 'visually-hidden' }, 'The list entry beside the customer'),
    h('thead', {}, h('tr', {}, h('td'), h('th', { scope: 'col' }, 'Listed'), h('th', { scope: 'col' }, 'Customer'))),
    h(
      'tbody',
      {},
      row('Name', 'name', h('div', {}, h('strong', {}, hit.listedName), aliases ? [h('div', { class: 'muted' }, 'Also known as:'), aliases] : null), list(hit.customer.names)),
      row('Date of birth', 'birthDate', list(hit.listed.birthDates.map(birthDate)), hit.customer.birthDate ? birthDate(hit.customer.birthDate) : h('span', { class: 'muted' }, 'none given')),
      row('Country', 'country', list(hit.listed.countries), list(hit.customer.countries)),
      // Never matched on: what else the list says of the entry, for the operator to weigh against the customer.
      h(
        'tr',
        { dataset: { field: 'remarks' } },
        h('th', { scope: 'row' }, 'Other remarks'),
        h('td', { colspan: '2' }, hit.listed.remarks == null ? h('span', { class: 'muted' }, 'not recorded for this hit') : hit.listed.remarks.length ? h('ul', { class: 'remarks' }, hit.listed.remarks.map((r) => h('li', {}, r))) : h('span', { class: 'muted' }, 'none given')),
      ),
    ),
  );
}

const ADJUSTMENT_LABELS: Record<ScoreAdjustmentKind, string> = {
  extra_words: 'Words only one side has',
  contradicting_words: 'Contradicting words',
  legal_form: 'Legal form',
  birth_date: 'Date of birth',
  country: 'Country',
};

const percent = (share: number) => `${Math.round(share * 100)}%`;
const decimal = (n: number) => n.toFixed(3);
/** Signed in text, with a real minus sign (read as "minus"), so the direction never rests on colour. */
const signed = (n: number) => (n > 0 ? `+${decimal(n)}` : n < 0 ? `\u2212${decimal(-n)}` : decimal(0));

/** The words paired (each pair's similarity and weight), then the words only one side has. */
function wordsTable(e: HitExplanation): HTMLElement {
  const none = () => h('td', { class: 'muted' }, 'none');
  const unpaired = (side: 'subject' | 'listed', word: string) =>
    h(
      'tr',
      { dataset: { only: side } },
      side === 'subject' ? h('td', {}, word) : none(),
      side === 'listed' ? h('td', {}, word) : none(),
      h('td', { colspan: '2', class: 'muted' }, side === 'subject' ? 'only the customer’s name has it' : 'only the listed name has it'),
    );
  return h(
    'table',
    { class: 'hit-compare hit-words' },
    h('caption', {}, 'Word by word'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Customer’s word'), h('th', { scope: 'col' }, 'Listed word'), h('th', { scope: 'col', class: 'num' }, 'Similarity'), h('th', { scope: 'col', class: 'num' }, 'Weight'))),
    h(
      'tbody',
      {},
      e.pairs.map((p) => h('tr', { dataset: { pair: '' } }, h('td', {}, p.subject), h('td', {}, p.listed), h('td', { class: 'num' }, percent(p.similarity)), h('td', { class: 'num' }, percent(p.weight)))),
      e.onlySubject.map((w) => unpaired('subject', w)),
      e.onlyListed.map((w) => unpaired('listed', w)),
    ),
  );
}

/** The engine writes "<customer's date> agrees with <the listed ones>": both sides in the console's one form of a date of birth. */
function birthDateDetail(detail: string): string {
  const m = /^(\S+) (agrees with|is near|differs from) (.+)$/.exec(detail);
  return m ? `${birthDate(m[1]!)} ${m[2]} ${m[3]!.split(', ').map(birthDate).join(', ')}` : detail;
}

/** Each adjustment after the words' mean, signed, with why; then the score it came to. */
function adjustmentsTable(hit: Hit, e: HitExplanation): HTMLElement {
  return h(
    'table',
    { class: 'hit-compare hit-adjustments' },
    h('caption', {}, 'What raised or lowered the score'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Adjustment'), h('th', { scope: 'col', class: 'num' }, 'Effect'), h('th', { scope: 'col' }, 'Why'))),
    h(
      'tbody',
      {},
      e.adjustments.length
        ? e.adjustments.map((a) => h('tr', { dataset: { adjustment: a.kind } }, h('th', { scope: 'row' }, ADJUSTMENT_LABELS[a.kind] ?? a.kind), h('td', { class: 'num' }, signed(a.effect)), h('td', {}, a.kind === 'birth_date' ? birthDateDetail(a.detail) : a.detail)))
        : h('tr', {}, h('td', { colspan: '3', class: 'muted' }, 'None: the score is the words’ alone')),
    ),
    h('tfoot', {}, h('tr', { dataset: { score: '' } }, h('th', { scope: 'row' }, 'Score'), h('td', { class: 'num' }, decimal(hit.score)), h('td', {}, `the name alone ${decimal(hit.nameScore)}`))),
  );
}

/** Why the hit scored what it did: which words agreed, which differed, and by how much. */
function explanation(hit: Hit): HTMLElement {
  const e = hit.explanation;
  const title = h('h4', {}, 'How the score came about');
  if (!e) return h('div', { class: 'hit-explanation', dataset: { explanation: 'none' } }, title, h('p', { class: 'muted' }, 'No explanation: this hit was raised before hits recorded why they scored what they did.'));
  const words = e.pairs.length + e.onlySubject.length + e.onlyListed.length > 0;
  if (!words && e.adjustments.length === 0) return h('div', { class: 'hit-explanation', dataset: { explanation: 'empty' } }, title, h('p', { class: 'muted' }, 'No explanation: the matcher recorded none for this hit.'));
  return h('div', { class: 'hit-explanation', dataset: { explanation: 'given' } }, title, words ? wordsTable(e) : h('p', { class: 'muted' }, 'No words were recorded.'), adjustmentsTable(hit, e));
}

/** Which version of the list the hit was raised against, and where the entry is published. */
function provenance(hit: Hit): HTMLElement {
  return h(
    'p',
    { class: 'hit-source' },
    hit.listVersion ? ['List version ', h('code', { class: 'list-version' }, hit.listVersion)] : h('span', { class: 'muted' }, 'List version not recorded'),
    ' · ',
    hit.sourceUrl
      ? h('a', { href: hit.sourceUrl, target: '_blank', rel: 'noopener noreferrer', class: 'entry-source' }, `${hit.list} entry ${hit.entryNumber} at its source`, h('span', { class: 'visually-hidden' }, ' (opens in a new tab)'))
      : h('span', { class: 'muted' }, 'No source page for this list'),
  );
}

function summary(hit: Hit): HTMLElement[] {
  const alias = hit.matchedAlias?.aliasType ? hit.matchedAlias : null;
  const matched = `“${hit.matchedName}” against ${alias ? `the alias “${alias.name}” (${alias.aliasType})` : `the entry’s name`}`;
  return [
    h('p', { class: 'hit-meta' }, hit.programs.length ? `Programs: ${hit.programs.join(', ')}` : 'No programs listed', ' · ', ENTRY_TYPES[hit.entryType] ?? hit.entryType, ' · raised ', h('time', { datetime: hit.raisedAt }, dateTime(hit.raisedAt))),
    provenance(hit),
    h('p', {}, `Matched ${matched}: score ${hit.score.toFixed(2)} (name ${hit.nameScore.toFixed(2)}).`),
    comparison(hit),
    explanation(hit),
  ];
}

/**
 * The case's screening hits, one panel each: the entry against the customer, and for an open hit its disposition
 * (true match or false positive, with a note the audit trail keeps). A note being typed survives the case's refresh.
 */
export function createHitsPanel(api: ApiClient, onChanged: () => Promise<void>): { element: HTMLElement; update(hits: Hit[] | undefined): void } {
  const cards = new Map<string, HitCard>();
  const listEl = h('div', { class: 'hits' });
  const element = h('section', { class: 'card hits-card', 'aria-labelledby': 'hits-title', hidden: true }, h('h2', { id: 'hits-title' }, 'Screening hits'), listEl);

  function dispositionForm(hit: Hit): HTMLElement {
    const id = `hit-note-${hit.hitId}`;
    const note = h('textarea', { id, name: 'note', rows: '2', 'aria-describedby': `${id}-error` });
    const error = h('p', { id: `${id}-error`, class: 'field-error', role: 'alert' });
    const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
    const feedback = reasonFeedback(note, error);
    let busy = false;
    const buttons = DISPOSITIONS.map(([disposition, label, tone]) =>
      h('button', { type: 'button', class: `button ${tone}`, dataset: { disposition }, onclick: () => void decide(disposition, label) }, label),
    );
    async function decide(disposition: Disposition, label: string): Promise<void> {
      if (busy) return;
      feedback.clear();
      problem.hidden = true;
      if (!note.value.trim()) return feedback.show(`A note is required to mark this hit ${label.toLowerCase()}.`);
      busy = true;
      buttons.forEach((b) => (b.disabled = true));
      try {
        await api.disposition(hit.hitId, { disposition, note: note.value.trim() });
        announce(`Hit on ${hit.list} entry ${hit.entryNumber} marked ${label.toLowerCase()}.`);
        cards.delete(hit.hitId);
        await onChanged().catch(() => {});
      } catch (err) {
        showProblem(problem, err instanceof ApiProblem ? err.problem : { title: 'The disposition failed', status: 0, detail: String(err) });
        if (err instanceof ApiProblem && err.status === 409) void onChanged().catch(() => {});
      } finally {
        busy = false;
        buttons.forEach((b) => (b.disabled = false));
      }
    }
    return h(
      'div',
      { class: 'hit-disposition', role: 'group', 'aria-label': `Disposition of the hit on entry ${hit.entryNumber}` },
      h('label', { for: id }, 'Note (required: why it is or is not this person)'),
      note,
      error,
      h('div', { class: 'decision-buttons' }, buttons),
      problem,
    );
  }

  function disposed(hit: Hit): HTMLElement | null {
    if (!hit.disposition) return null;
    const d = hit.disposition;
    return h('p', { class: 'hit-disposed' }, `${HIT_STATUS_LABELS[hit.status]} by ${d.operator.name}, `, h('time', { datetime: d.at }, dateTime(d.at)), ': ', h('q', {}, d.note));
  }

  function card(hit: Hit): HTMLElement {
    const fingerprint = JSON.stringify(hit);
    let c = cards.get(hit.hitId);
    if (!c) {
      const article = h('article', { class: 'hit', dataset: { hitId: hit.hitId }, 'aria-labelledby': `hit-title-${hit.hitId}` });
      c = { element: article, form: dispositionForm(hit), shown: '' };
      cards.set(hit.hitId, c);
    }
    if (c.shown !== fingerprint) {
      c.shown = fingerprint;
      c.element.dataset.status = hit.status;
      fill(
        c.element,
        h('h3', { id: `hit-title-${hit.hitId}` }, `${hit.list} entry ${hit.entryNumber}`, ' ', h('span', { class: 'badge', dataset: { status: `hit_${hit.status}` } }, HIT_STATUS_LABELS[hit.status])),
        summary(hit),
        hit.status === 'open' ? c.form : disposed(hit),
      );
    }
    return c.element;
  }

  return {
    element,
    update(hits) {
      const all = hits ?? [];
      element.hidden = all.length === 0;
      for (const id of cards.keys()) if (!all.some((x) => x.hitId === id)) cards.delete(id);
      // Open hits first: they are what the case waits on.
      fill(listEl, [...all].sort((a, b) => Number(b.status === 'open') - Number(a.status === 'open')).map(card));
    },
  };
}

import { announce } from '../announce';
import type { ApiClient } from '../api';
import { ApiProblem } from '../api';
import { fill, h, type Children } from '../dom';
import { DECISION_LABELS } from '../decisions';
import { humanize, STATUS_LABELS, SUBJECT_LABELS } from '../format';
import { integratorNames } from '../integrators';
import { setPageBindings } from '../keyboard';
import { hrefFor, navigate, type CaseRoute } from '../router';
import type { Case, CaseDocument, Finding, Operator } from '../types';
import { createDecisionForm } from './decision-form';
import { DocumentGallery } from './document-viewer';
import { entityTeamSections } from './entity-team';
import { createCaseWork } from './case-work';
import { createHitsPanel } from './hits';
import { historyTimeline } from './history';
import { createProposalPanel } from './proposal';
import { caseTimeline } from './timeline';
import { lastQueueRoute } from './queue';
import { recordDetails, subjectName } from './record-details';
import { statusBadge } from './status-badge';
import { followRecord, liveRecord } from './live-list';

const REFRESH_MS = 3_000;

const documentsOf = (c: Case) => [...((c.record.verificationDocuments ?? []) as CaseDocument[]), ...((c.record.entityDocuments ?? []) as CaseDocument[])];

function findingsList(findings: Finding[], docs: CaseDocument[]): HTMLElement {
  if (findings.length === 0) return h('p', { class: 'muted' }, 'Nothing found.');
  const docName = (id: string | null) => {
    const doc = id ? docs.find((d) => d.documentId === id) : undefined;
    return doc ? humanize(doc.documentType) : null;
  };
  return h(
    'ul',
    { class: 'findings' },
    findings.map((f) =>
      h(
        'li',
        { class: f.severity === 'error' ? 'note note-error' : 'note note-warning' },
        h('strong', {}, f.severity === 'error' ? 'Error: ' : 'Warning: '),
        f.message,
        h('span', { class: 'muted' }, ` (${f.code}${docName(f.documentId) ? `, ${docName(f.documentId)}` : ''})`),
        // A duplicate document, a reused number, a shared SSN: the other case it was found on.
        f.related ? h('div', {}, 'Also on ', h('a', { href: hrefFor({ name: 'case', subjectType: f.related.subjectType, subjectId: f.related.subjectId }), class: 'related-case' }, f.related.name || f.related.subjectId), ` (${SUBJECT_LABELS[f.related.subjectType]})`) : null,
      ),
    ),
  );
}

const OPEN_REASONS = { screening_hit: 'Reopened: a screening hit on an active customer', incoming_from_listed_address: 'Reopened: money arrived from a listed address' } as const;

/**
 * The document types that satisfy each missing-document code (src/domain/onboarding/requirements.ts and
 * REQUIRED_ENTITY_DOCUMENT_GROUPS), so a requirement whose documents were sent but refused says so.
 */
const SATISFIED_BY: Record<string, string[]> = {
  IDENTITY_DOCUMENT: ['passport', 'national_id_front', 'national_id_back'],
  PROOF_OF_ADDRESS_DOCUMENT: ['proof_of_address'],
  COMPANY_DETAILS_DOCUMENT: ['incorporation_cert', 'incorporation_articles', 'state_registry'],
  OWNERSHIP_STRUCTURE_DOCUMENT: ['shareholder_registry', 'information_statement', 'trust_agreement', 'partnership_agreement'],
  SOURCE_OF_FUNDS_DOCUMENT: ['source_of_funds'],
};
const DUPLICATE_CODES = new Set(['duplicate_document', 'document_number_reused']);

/** Why a sent document does not count: "duplicate of <the other case>" for a duplicate, else its errors. */
function refusal(doc: CaseDocument, findings: Finding[]): Children {
  const duplicate = findings.find((f) => f.documentId === doc.documentId && DUPLICATE_CODES.has(f.code) && f.related);
  const what = humanize(doc.documentType);
  if (duplicate?.related) {
    const r = duplicate.related;
    return [`${what} refused: duplicate of a document on `, h('a', { href: hrefFor({ name: 'case', subjectType: r.subjectType, subjectId: r.subjectId }), class: 'related-case' }, r.name || r.subjectId), ` (${SUBJECT_LABELS[r.subjectType]})`];
  }
  return `${what} refused: ${(doc.errors ?? []).join('; ')}`;
}

/** What the case still lacks; a document requirement whose documents were sent and refused names each refusal instead. */
function missingList(c: Case): HTMLElement | null {
  const docs = documentsOf(c);
  const documentItem = (code: string): Children => {
    const refused = docs.filter((d) => SATISFIED_BY[code]?.includes(d.documentType) && (d.errors ?? []).length > 0);
    if (refused.length === 0) return `Document: ${humanize(code)}`;
    return [`Document: ${humanize(code)}: `, h('ul', { class: 'refused' }, refused.map((d) => h('li', { dataset: { refused: d.documentId } }, refusal(d, c.findings))))];
  };
  const items = [...c.missingDocuments.map(documentItem), ...c.missingCompanyData.map((m) => `Company data: ${humanize(m)}`)];
  return items.length ? h('ul', { class: 'missing' }, items.map((i) => h('li', {}, i))) : null;
}

/**
 * One case: the subject's data, documents, automated findings, history and the decision form. The case is polled
 * so a change made elsewhere (the integrator resubmitting, another officer deciding) shows up; what the officer
 * typed or ticked is never reset by a refresh.
 */
export function mountCase(main: HTMLElement, api: ApiClient, route: CaseRoute, operator: Operator): () => void {
  let current: Case | null = null;
  /** The status this officer's own decision led to: already announced, not a change made elsewhere. */
  let decided: string | null = null;
  const operatorNames = new Map([[operator.operatorId, operator.name]]);

  const back = h('a', { href: hrefFor(lastQueueRoute()), class: 'back', 'aria-keyshortcuts': 'Escape' }, '← Queue');
  const title = h('h1', { id: 'page-title', tabindex: '-1' }, 'Case');
  const badgeSlot = h('span', { class: 'badge-slot' });
  const meta = h('p', { class: 'muted case-meta' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  // One column (a phone, a narrow window): the Decision panel comes after the hits, documents and details.
  const jump = h(
    'p',
    { class: 'jump-to-decision' },
    h('button', { type: 'button', class: 'link-button', onclick: () => jumpToDecision() }, 'Jump to the decision ↓'),
  );
  const findingsSlot = h('div');
  const missingSection = h('section', { class: 'card', 'aria-labelledby': 'missing-title', hidden: true }, h('h2', { id: 'missing-title' }, 'Missing'), h('div'));
  const detailsSlot = h('div');
  const historySlot = h('div');
  const refresh = () => record.refresh();
  const hits = createHitsPanel(api, refresh);
  const work = createCaseWork(api, route, operator, refresh);
  const proposal = createProposalPanel(api, route, operator, refresh, (status) => (decided = status));
  const team = entityTeamSections();
  const gallery = new DocumentGallery(api, () => form.setSelectedCount(gallery.selected().length), () => title.focus());
  const form = createDecisionForm({
    refresh: () => record.refresh().catch(() => {}),
    async propose(decision, reasons) {
      await api.propose(route.subjectType, route.subjectId, { decision, reasons });
      announce(`${DECISION_LABELS[decision]} proposed: a supervisor confirms or overturns it.`);
      await record.refresh().catch(() => {});
    },
    async decide(decision, reasons) {
      const documents = decision === 'request_resubmission' ? gallery.selected() : [];
      let result;
      try {
        result = await api.decide(route.subjectType, route.subjectId, {
          decision,
          ...(reasons.length ? { reasons } : {}),
          ...(documents.length ? { documents } : {}),
        });
      } catch (err) {
        // Refused because the case moved meanwhile: show where it is now, beside the problem.
        if (err instanceof ApiProblem && err.status === 409) void record.refresh().catch(() => {});
        throw err;
      }
      gallery.clearSelection();
      decided = result.verificationStatus;
      announce(`${DECISION_LABELS[decision]}: the case is now ${STATUS_LABELS[result.verificationStatus].toLowerCase()}.`);
      // The decision is made; a failed reload shows its own problem and the poll tries again.
      await record.refresh().catch(() => {});
    },
  });

  const layout = h(
    'div',
    { class: 'case', hidden: true },
    h(
      'div',
      { class: 'case-main' },
      hits.element,
      h('section', { class: 'card', 'aria-labelledby': 'documents-title' }, h('h2', { id: 'documents-title' }, 'Documents'), gallery.element),
      h('section', { class: 'card', 'aria-labelledby': 'details-title' }, h('h2', { id: 'details-title' }, 'Details'), detailsSlot),
      team.sections,
    ),
    h(
      'aside',
      { class: 'case-side' },
      proposal.element,
      form.element,
      work.element,
      h('section', { class: 'card', 'aria-labelledby': 'findings-title' }, h('h2', { id: 'findings-title' }, 'Automated checks'), findingsSlot),
      missingSection,
      h('section', { class: 'card', 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'Timeline ', h('span', { class: 'muted' }, '(times in UTC)')), historySlot),
    ),
  );

  fill(main, h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, back), h('div', { class: 'page-head' }, title, badgeSlot), meta, jump, problem, layout);

  function jumpToDecision(): void {
    form.element.scrollIntoView({ block: 'start' });
    form.element.querySelector<HTMLElement>('#decision-title')?.focus({ preventScroll: true });
  }
  document.title = 'Case · Review console';

  function render(c: Case): void {
    const name = subjectName(c.record);
    const statusChanged = current !== null && current.verificationStatus !== c.verificationStatus;
    current = c;
    title.textContent = name;
    document.title = `${name} · Review console`;
    fill(badgeSlot, statusBadge(c.verificationStatus, 'case-status'));
    fill(meta, SUBJECT_LABELS[c.subjectType], ' · ', integratorNames.get(c.integratorId) ?? `Integrator ${c.integratorId}`, ' · ', h('code', {}, c.subjectId), c.openReason ? [' · ', h('strong', {}, OPEN_REASONS[c.openReason] ?? c.openReason)] : null);
    const docs = documentsOf(c);
    gallery.update(docs, c.findings);
    fill(findingsSlot, findingsList(c.findings, docs));
    const missing = missingList(c);
    missingSection.hidden = !missing;
    fill(missingSection.lastElementChild!, missing);
    fill(detailsSlot, recordDetails(c.record));
    // The server's timeline (issue 36) tells the whole story; an older server's status history, what it has.
    fill(historySlot, c.timeline ? caseTimeline(c.timeline) : historyTimeline(c.history, operatorNames));
    hits.update(c.hits);
    work.update(c);
    proposal.update(c.proposal, c.hits ?? []);
    // The server's own four-eyes answer for this operator (its counts are the queue's and the checks'): the page
    // does not count again.
    form.setApproval(c.approval);
    form.setProposalPending(!!c.proposal);
    team.update(c);
    form.setStatus(c.verificationStatus);
    layout.hidden = false;
    if (statusChanged && c.verificationStatus !== decided) announce(`Status changed: ${STATUS_LABELS[c.verificationStatus]}.`);
    decided = null;
  }

  const record = liveRecord({ problem, layout, noun: 'case', fetch: (signal) => api.getCase(route.subjectType, route.subjectId, signal), show: render });


  setPageBindings({
    // Never a decision on one key press: a shows the approval's confirmation (or its proposal), focused.
    a: () => form.arm('approve'),
    r: () => form.arm('request_resubmission'),
    x: () => form.arm('reject'),
    Escape: () => navigate(lastQueueRoute()),
  });

  return followRecord(record, title, REFRESH_MS, () => {
    gallery.destroy();
    team.destroy();
  });
}

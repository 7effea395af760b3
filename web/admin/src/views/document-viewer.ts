import type { ApiClient } from '../api';
import { ApiProblem } from '../api';
import { fill, h } from '../dom';
import { humanize } from '../format';
import type { CaseDocument, Finding } from '../types';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

interface Card {
  doc: CaseDocument;
  element: HTMLElement;
  checkbox: HTMLInputElement;
  notes: HTMLElement;
  url?: string;
}

/**
 * The case's documents. Each is fetched with the bearer token and shown from a blob: URL (images in <img>, PDFs
 * in an <iframe>); the URLs are revoked when a document leaves the page or the page closes. Each card lists the
 * document's errors and warnings and has a checkbox to ask for a new one.
 */
export class DocumentGallery {
  readonly element = h('div', { class: 'documents' });
  private readonly cards = new Map<string, Card>();
  private readonly controller = new AbortController();

  constructor(
    private readonly api: ApiClient,
    private readonly onSelectionChange: () => void,
    /** Where focus goes back to when a PDF frame takes it by itself (the case's heading). */
    private readonly returnFocus: () => void = () => {},
  ) {
    // Chromium's PDF viewer can take focus when it loads; keys pressed then go to the frame, and the page's
    // shortcuts stop working until the officer clicks outside. The parent sees only its window's blur (and a
    // focusout when something of its own had focus). Focus always comes back, a click in the PDF included: the
    // frame is for looking, and the mouse still scrolls and zooms it without focus; the download opens it whole.
    const guard = () => window.setTimeout(() => this.guardFocus());
    window.addEventListener('blur', guard, { signal: this.controller.signal });
    document.addEventListener('focusout', guard, { signal: this.controller.signal });
  }

  private guardFocus(): void {
    const active = document.activeElement;
    if (active instanceof HTMLIFrameElement && this.element.contains(active)) this.returnFocus();
  }

  /** Shows these documents: cards already on the page stay (with their checkbox and loaded content). */
  update(docs: CaseDocument[], findings: Finding[]): void {
    const ids = new Set(docs.map((d) => d.documentId));
    for (const [id, card] of this.cards) {
      if (ids.has(id)) continue;
      if (card.url) URL.revokeObjectURL(card.url);
      this.cards.delete(id);
    }
    if (docs.length === 0) {
      fill(this.element, h('p', { class: 'muted' }, 'No documents.'));
      return;
    }
    const cards = docs.map((doc) => {
      const card = this.cards.get(doc.documentId) ?? this.create(doc);
      card.doc = doc;
      this.renderNotes(card, findings.filter((f) => f.documentId === doc.documentId));
      return card.element;
    });
    fill(this.element, cards);
    this.onSelectionChange();
  }

  selected(): string[] {
    return [...this.cards.values()].filter((c) => c.checkbox.checked).map((c) => c.doc.documentId);
  }

  clearSelection(): void {
    for (const card of this.cards.values()) card.checkbox.checked = false;
    this.onSelectionChange();
  }

  destroy(): void {
    this.controller.abort();
    for (const card of this.cards.values()) if (card.url) URL.revokeObjectURL(card.url);
    this.cards.clear();
  }

  private create(doc: CaseDocument): Card {
    const title = humanize(doc.documentType);
    const checkbox = h('input', { type: 'checkbox', id: `resubmit-${doc.documentId}`, name: 'documents', value: doc.documentId });
    checkbox.addEventListener('change', () => this.onSelectionChange());
    const view = h('div', { class: 'document-view', 'aria-busy': 'true' }, h('span', { class: 'muted' }, 'Loading…'));
    const notes = h('div', { class: 'document-notes' });
    const meta = [doc.issuingCountry ? `Issued by ${doc.issuingCountry}` : null, doc.documentNumber ? `No. ${doc.documentNumber}` : null, doc.description].filter(Boolean).join(' · ');
    const element = h(
      'figure',
      { class: 'document', dataset: { documentId: doc.documentId, documentType: doc.documentType } },
      h('figcaption', {}, h('strong', {}, title), meta ? h('span', { class: 'muted' }, meta) : null),
      view,
      notes,
      h('label', { class: 'check', for: checkbox.id }, checkbox, ' Ask for a new ', title.toLowerCase()),
    );
    const card: Card = { doc, element, checkbox, notes };
    this.cards.set(doc.documentId, card);
    void this.load(card, view, title);
    return card;
  }

  private async load(card: Card, view: HTMLElement, title: string): Promise<void> {
    try {
      const blob = await this.api.documentBlob(card.doc.contentUrl, this.controller.signal);
      if (this.controller.signal.aborted || !this.cards.has(card.doc.documentId)) return;
      const type = blob.type.split(';')[0]!.trim().toLowerCase();
      card.url = URL.createObjectURL(blob);
      const filename = `${card.doc.documentType}-${card.doc.documentId}`;
      const download = h('a', { href: card.url, download: filename, class: 'download' }, 'Download');
      if (IMAGE_TYPES.has(type)) {
        fill(view, h('img', { src: card.url, alt: `${title}${card.doc.issuingCountry ? `, issued by ${card.doc.issuingCountry}` : ''}`, class: 'document-image' }), download);
      } else if (type === 'application/pdf') {
        // Out of the tab order: the download link is the keyboard's way to the file, and focus stays on the page.
        fill(view, h('iframe', { src: card.url, title: `${title} (PDF)`, class: 'document-pdf', tabindex: '-1' }), download);
      } else {
        fill(view, h('p', { class: 'muted' }, `No preview for ${type || 'this file type'}.`), download);
      }
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      fill(view, h('p', { class: 'field-error' }, 'The document could not be loaded: ', err instanceof ApiProblem ? (err.problem.detail ?? err.problem.title) : String(err)));
    } finally {
      view.removeAttribute('aria-busy');
    }
  }

  private renderNotes(card: Card, findings: Finding[]): void {
    // A document's errors and warnings repeat its automated findings (shown with their code) and add what an
    // operator flagged for resubmission.
    const fromChecks = new Set(findings.map((f) => f.message));
    const notes = [
      ...(card.doc.errors ?? []).filter((m) => !fromChecks.has(m)).map((message) => ({ error: true, label: 'Flagged', message, code: '' })),
      ...findings.map((f) => ({ error: f.severity === 'error', label: f.severity === 'error' ? 'Error' : 'Warning', message: f.message, code: f.code })),
      ...(card.doc.warnings ?? []).filter((m) => !fromChecks.has(m)).map((message) => ({ error: false, label: 'Warning', message, code: '' })),
    ];
    fill(
      card.notes,
      notes.map((n) =>
        h('p', { class: `note ${n.error ? 'note-error' : 'note-warning'}` }, h('strong', {}, `${n.label}: `), n.message, n.code ? h('span', { class: 'muted' }, ` (${n.code})`) : null),
      ),
    );
    card.element.classList.toggle('has-errors', notes.some((n) => n.error));
  }
}

import { fill, h } from '../dom';
import type { Problem } from '../types';

/** A reason field's inline error, as every decision form shows it: the message, aria-invalid, and the focus. */
export function reasonFeedback(reason: HTMLTextAreaElement, reasonError: HTMLElement): { show(message: string): void; clear(): void } {
  return {
    show(message) {
      reasonError.textContent = message;
      reason.setAttribute('aria-invalid', 'true');
      reason.focus();
    },
    clear() {
      reasonError.textContent = '';
      reason.removeAttribute('aria-invalid');
    },
  };
}

/** The server's problem as it came: title, detail, each field error with its pointer, and the request id. */
export function showProblem(box: HTMLElement, problem: Problem): void {
  fill(
    box,
    h('strong', {}, problem.title),
    problem.detail ? h('p', {}, problem.detail) : null,
    problem.errors?.length ? h('ul', {}, problem.errors.map((e) => h('li', {}, h('code', {}, e.pointer), ' ', e.detail))) : null,
    problem.requestId ? h('p', { class: 'muted' }, `Request ${problem.requestId}`) : null,
  );
  box.hidden = false;
}

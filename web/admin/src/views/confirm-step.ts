import { h } from '../dom';

export interface ConfirmStep {
  element: HTMLElement;
  /** Shows the step: what will happen, and the button that does it, which takes focus. */
  show(text: string, action: string, focus: boolean): void;
  hide(): void;
  setBusy(busy: boolean): void;
}

/**
 * The second step of every decision that changes a customer's status: one key press or click never decides, so the
 * shortcut, the button or Ctrl+Enter in the reason shows what will happen and one button that does it (Enter on it,
 * or a click). Escape or
 * Cancel takes the step away; Escape here is the step's, not the page's (which would leave it).
 */
export function createConfirmStep(id: string, options: { confirm(): void; cancel(): void }): ConfirmStep {
  const text = h('p', { id: `${id}-text` });
  const button = h('button', { type: 'button', class: 'button primary', id, 'aria-describedby': `${id}-text`, onclick: () => options.confirm() });
  const cancel = h('button', { type: 'button', class: 'button quiet', onclick: () => options.cancel() }, 'Cancel');
  const element = h('div', { class: 'confirm-step', role: 'group', 'aria-label': 'Confirm the decision', hidden: true }, text, h('div', { class: 'decision-buttons' }, button, cancel));
  element.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    options.cancel();
  });
  return {
    element,
    show(said, action, focus) {
      text.textContent = said;
      button.textContent = action;
      element.hidden = false;
      if (focus) button.focus();
    },
    hide() {
      element.hidden = true;
    },
    setBusy(busy) {
      button.disabled = busy;
    },
  };
}

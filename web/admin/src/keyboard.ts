// Single-key shortcuts. The page in view sets its bindings; global ones (like "?") apply everywhere. Keys typed
// into a field are the field's, except Escape, which leaves the field.

export type Bindings = Record<string, (event: KeyboardEvent) => void>;

let pageBindings: Bindings = {};
let globalBindings: Bindings = {};

export function setPageBindings(bindings: Bindings): void {
  pageBindings = bindings;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
}

/** Enter and Space on a link, button or checkbox do what they always do. */
function activatesNatively(event: KeyboardEvent): boolean {
  if (event.key !== 'Enter' && event.key !== ' ') return false;
  const target = event.target;
  return target instanceof HTMLAnchorElement || target instanceof HTMLButtonElement || target instanceof HTMLInputElement;
}

export function installKeyboard(bindings: Bindings): void {
  globalBindings = bindings;
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    // A modal dialog handles its own keys (Escape closes it).
    if (document.querySelector('dialog[open]')) return;
    if (isTyping(event.target)) {
      if (event.key === 'Escape') {
        (event.target as HTMLElement).blur();
        event.preventDefault();
      }
      return;
    }
    if (activatesNatively(event)) return;
    const handler = pageBindings[event.key] ?? globalBindings[event.key];
    if (!handler) return;
    event.preventDefault();
    handler(event);
  });
}

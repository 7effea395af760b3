import { byId } from './dom';

let clearTimer: number | undefined;

/** Says something in the page's aria-live status region (and shows it there). */
export function announce(message: string, tone: 'info' | 'error' = 'info'): void {
  const region = byId('announcer');
  window.clearTimeout(clearTimer);
  // Emptying first makes a repeated message be read again.
  region.textContent = '';
  region.dataset.tone = tone;
  window.requestAnimationFrame(() => {
    region.textContent = message;
  });
  clearTimer = window.setTimeout(() => {
    region.textContent = '';
  }, 10_000);
}

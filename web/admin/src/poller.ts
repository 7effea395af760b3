/**
 * Runs `task` every `intervalMs` while the page is visible: paused when the tab is hidden, run at once when it
 * is shown again. Runs never overlap; the next one is scheduled after the previous one settles.
 */
export function poll(task: () => Promise<void>, intervalMs: number): () => void {
  let timer: number | undefined;
  let stopped = false;
  let running = false;

  const schedule = () => {
    window.clearTimeout(timer);
    if (!stopped && document.visibilityState === 'visible') timer = window.setTimeout(run, intervalMs);
  };
  const run = async () => {
    if (stopped || running) return;
    running = true;
    try {
      await task();
    } catch {
      // The task shows its own errors; polling goes on.
    } finally {
      running = false;
      schedule();
    }
  };
  const onVisibility = () => {
    if (document.visibilityState === 'visible') void run();
    else window.clearTimeout(timer);
  };

  document.addEventListener('visibilitychange', onVisibility);
  schedule();
  return () => {
    stopped = true;
    window.clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}

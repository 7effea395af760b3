/**
 * Marks a box that scrolls sideways with the sides more of it lies beyond (`data-more="start end"`), so the CSS can
 * fade that edge: a phone's header links run past the screen's edge, and a cut-off link alone does not say there are
 * more. Kept up to date as the box scrolls or changes size (shown, hidden, the window turned).
 */
export function scrollCue(box: HTMLElement): void {
  const update = () => {
    const more = [box.scrollLeft > 1 ? 'start' : '', box.scrollLeft + box.clientWidth < box.scrollWidth - 1 ? 'end' : ''].filter(Boolean).join(' ');
    if (more) box.dataset.more = more;
    else delete box.dataset.more;
  };
  box.addEventListener('scroll', update, { passive: true });
  new ResizeObserver(update).observe(box);
  update();
}

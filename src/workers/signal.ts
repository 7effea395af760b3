/** A wake-up call from request handlers to a background worker of the same process (e.g. after a broadcast). */
export class Signal {
  private readonly listeners = new Set<() => void>();

  fire(): void {
    for (const listener of this.listeners) listener();
  }

  /** Returns the function that stops listening. */
  on(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

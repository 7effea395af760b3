import type { Scope } from './credentials.js';

/** What an operation needs: reading, or changing state (which includes managing keys). */
export type Access = 'read' | 'write';

export function scopeAllows(scope: Scope, access: Access): boolean {
  return scope === 'read_write' || access === 'read';
}

import { v7 } from 'uuid';

/** Time-ordered UUIDs (v7): ids sort by creation, which keeps cursor pagination and indexes simple. */
export function newId(): string {
  return v7();
}

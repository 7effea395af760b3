import { v7 } from 'uuid';

/** The one textual form of a UUID we accept anywhere: 8-4-4-4-12 hex digits (no urn:, braces or bare hex). */
export const UUID_SOURCE = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
export const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`);

/** Time-ordered UUIDs (v7): ids sort by creation, which keeps cursor pagination and indexes simple. */
export function newId(): string {
  return v7();
}

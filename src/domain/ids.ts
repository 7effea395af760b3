import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/** The one textual form of a UUID we accept anywhere: 8-4-4-4-12 hex digits (no urn:, braces or bare hex). */
export const UUID_SOURCE = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
export const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`);

// uuid's own v7() asks the CSPRNG for 16 bytes per id (crypto.getRandomValues: 4 to 10 µs on Node 24, a twentieth of
// a whoami's CPU, for its request id). The bytes come from a pool filled 256 ids at a time instead, as Node's
// randomUUID does, and the monotonic state uuid keeps for its no-options call is kept here.
const POOL = Buffer.alloc(16 * 256);
let taken = POOL.length;
const state = { msecs: -Infinity, seq: 0 };

function randomBytes16(): Buffer {
  if (taken === POOL.length) {
    randomFillSync(POOL);
    taken = 0;
  }
  taken += 16;
  return POOL.subarray(taken - 16, taken);
}

/**
 * Time-ordered UUIDs (v7): ids sort by creation, which keeps cursor pagination and indexes simple. Within one
 * millisecond a 32-bit sequence (started at random) counts up, so ids of one process sort in the order they were
 * made, as uuid's v7() without options does (RFC 9562 §6.2, method 1).
 */
export function newId(): string {
  const random = randomBytes16();
  const now = Date.now();
  if (now > state.msecs) {
    state.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
    state.msecs = now;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++;
  }
  return v7({ random, msecs: state.msecs, seq: state.seq });
}

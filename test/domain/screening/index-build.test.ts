import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScreeningIndex } from '../../../src/domain/screening/engine.js';
import type { ListEntry } from '../../../src/domain/screening/types.js';

/** A list's reload indexes it a slice at a time (ScreeningIndex.build), letting requests run between slices. */

const WORDS = ['sidorov', 'ivan', 'petrovich', 'volkova', 'elena', 'haddad', 'omar', 'karaviotis', 'stelios', 'zhang', 'wei', 'rosa', 'trading', 'northwind', 'shipping'];
const entries: ListEntry[] = Array.from({ length: 1_200 }, (_, i) => ({
  list: 'L',
  entryNumber: String(i + 1),
  type: i % 5 === 0 ? 'entity' : i % 7 === 0 ? 'unknown' : 'individual',
  name: `${WORDS[i % WORDS.length]!.toUpperCase()}, ${WORDS[(i * 7 + 3) % WORDS.length]} ${WORDS[(i * 11 + 5) % WORDS.length]}${i % 3 === 0 ? ` ${String.fromCharCode(97 + (i % 26))}x` : ''}`,
  aliases: i % 4 === 0 ? [{ name: `${WORDS[(i + 2) % WORDS.length]} ${WORDS[i % WORDS.length]}`, aliasType: 'a.k.a.' }] : [],
  programs: [],
  birthDates: [],
  countries: [],
  walletAddresses: [],
}));

describe('ScreeningIndex.build', () => {
  it('builds the index the constructor builds: the same hits for every subject', async () => {
    const built = await ScreeningIndex.build(entries, 0.88, 100);
    const direct = new ScreeningIndex(entries, 0.88);
    for (const name of ['Ivan Sidorov', 'Elena Petrovich Volkova', 'Omar Hadad', 'Wei Zhang', 'Stelios Karaviotis', 'Rosa Trading', 'Nobody Atall']) {
      for (const kind of ['person', 'entity'] as const) {
        assert.deepEqual(built.screen({ kind, names: [name] }), direct.screen({ kind, names: [name] }), `${kind} ${name}`);
      }
    }
  });

  it('lets the event loop run between slices', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('another request'));
    await ScreeningIndex.build(entries, 0.88, 500).then(() => order.push('built'));
    assert.deepEqual(order, ['another request', 'built']);
  });
});

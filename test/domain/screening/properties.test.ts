import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ScreeningIndex } from '../../../src/domain/screening/engine.js';
import { scoreNames } from '../../../src/domain/screening/name-score.js';
import { jaroWinkler } from '../../../src/domain/screening/similarity.js';
import { soundClass } from '../../../src/domain/screening/keys.js';
import { consonants, nameTokens } from '../../../src/domain/screening/text.js';
import type { ListEntry } from '../../../src/domain/screening/types.js';

const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 2, maxLength: 12 });
const prepared = (tokens: string[]) => ({ tokens, skeletons: tokens.map(consonants), sounds: tokens.map(soundClass), arabic: false });

describe('similarity properties', () => {
  it('Jaro-Winkler is symmetric, within 0 and 1, and 1 exactly for equal strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), (a, b) => {
        const ab = jaroWinkler(a, b);
        assert.equal(ab, jaroWinkler(b, a));
        assert.ok(ab >= 0 && ab <= 1);
        assert.equal(jaroWinkler(a, a), 1);
        if (a !== b) assert.ok(ab < 1, `${a} ${b}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('Jaro-Winkler is 0 for strings without a letter in common', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'abc'), minLength: 1 }), fc.string({ unit: fc.constantFrom(...'xyz'), minLength: 1 }), (a, b) => jaroWinkler(a, b) === 0));
  });

  it('one typo costs less than two (monotone on edits at the end of a word)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 6, maxLength: 14 }), (a) => {
        // Letters the word cannot hold, so that an edit is never undone by chance.
        const one = a.slice(0, -1) + '1';
        const two = a.slice(0, -2) + '21';
        assert.ok(jaroWinkler(a, one) >= jaroWinkler(a, two), `${a} ${one} ${two}`);
        assert.ok(jaroWinkler(a, one) >= 0.85, `${a} ${one}`);
      }),
    );
  });

  it('a name scores the same in any word order, is 1 against itself, and stays within 0 and 1', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), fc.array(word, { minLength: 1, maxLength: 4 }), (a, b) => {
        const reversed = [...a].reverse();
        assert.equal(scoreNames(prepared(a), prepared(b)), scoreNames(prepared(reversed), prepared(b)));
        assert.equal(scoreNames(prepared(a), prepared(a)), 1);
        const s = scoreNames(prepared(a), prepared(b));
        assert.ok(s >= 0 && s <= 1);
      }),
      { numRuns: 1000 },
    );
  });

  it('case, accents and punctuation never change the tokens', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), (words) => {
        const plain = nameTokens(words.join(' ')).tokens;
        assert.deepEqual(nameTokens(words.map((w) => w.toUpperCase()).join(', ')).tokens, plain);
        assert.deepEqual(nameTokens(words.join(' - ').normalize('NFD')).tokens, plain);
      }),
    );
  });

  it('every listed name finds its own entry, whatever else is listed (blocking never loses an exact name)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(word, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 30 }), (names) => {
        const entries: ListEntry[] = names.map((n, i) => ({ list: 'L', entryNumber: String(i + 1), type: 'individual', name: n.join(' '), aliases: [], programs: [], birthDates: [], countries: [], walletAddresses: [] }));
        const index = new ScreeningIndex(entries);
        for (const entry of entries) {
          const hits = index.screen({ kind: 'person', names: [entry.name] });
          for (const hit of hits) assert.ok(hit.score >= 0.88);
          assert.ok(hits.some((h) => h.entryNumber === entry.entryNumber && h.nameScore === 1), entry.name);
        }
      }),
      { numRuns: 200 },
    );
  });
});

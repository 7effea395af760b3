import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_THRESHOLD, ScreeningIndex } from '../../../src/domain/screening/engine.js';
import { loadListSync } from '../../../src/domain/screening/load.js';
import { spellings } from '../../../src/domain/screening/spellings.js';
import { nameReadings } from '../../../src/domain/screening/text.js';
import type { ListEntry, ScreeningSubject } from '../../../src/domain/screening/types.js';
import { SAMPLE } from './helpers.js';

const entries = loadListSync({ label: 'OFAC-SAMPLE', path: SAMPLE, kind: 'folder' }).entries;
const sample = new ScreeningIndex(entries);
const person = (name: string, birthDate?: string): ScreeningSubject => ({ kind: 'person', names: [name], ...(birthDate ? { birthDate } : {}) });
const entity = (name: string): ScreeningSubject => ({ kind: 'entity', names: [name] });
const individual = (n: number, name: string): ListEntry => ({ list: 'L', entryNumber: String(n), type: 'individual', name, aliases: [], programs: [], birthDates: [], countries: [], walletAddresses: [] });

describe('marks inside a word, words run together, digits for letters', () => {
  it("the review's forms of Ivan Sidorov, with the listed birth date, hit as Ivan Sidorov does", () => {
    const plain = sample.screen(person('Ivan Sidorov', '1961-07-14'))[0]!;
    const forms = ['Ivan Si-dorov', 'Ivan Si\u00b7dorov', 'Ivan S.i.d.o.r.o.v', 'I.v.a.n S.i.d.o.r.o.v', 'Ivan S i d o r o v', 'I v a n S i d o r o v', 'IvanSidorov', 'IVANSIDOROV', 'ivansidorov', 'SidorovIvan', 'Ivan S1d0r0v', '1van 5idorov', 'Ivan $id0r0v', 'Ivan Si dorov', 'Ivan S idorov'];
    for (const form of forms) {
      const hit = sample.screen(person(form, '1961-07-14'))[0];
      assert.deepEqual([hit?.entryNumber, hit?.score, hit?.agreed], ['90001', plain.score, ['name', 'birthDate']], form);
    }
  });

  it('companies too: joined, dotted, hyphenated, legal forms cut or run in', () => {
    for (const form of ['ZirconCapital', 'Zircon-Capital', 'Z.i.r.c.o.n Capital', 'NorthwindShippingLLC', 'northwindshippingllc', 'Northwind Shipping L.L.C.', 'Northwind Shipping L LC', 'Blue L0tus Trading', 'Lantau Blue Lotus Li mited']) {
      assert.ok(sample.screen(entity(form)).length > 0, form);
    }
  });

  it('spellings: the words as written, then joined, cut at capitals, and with digits read as letters', () => {
    assert.deepEqual(spellings('si-dorov'), [{ tokens: ['si', 'dorov'] }, { tokens: ['sidorov'] }]);
    assert.deepEqual(spellings('s i d o r o v'), [{ tokens: ['s', 'i', 'd', 'o', 'r', 'o', 'v'] }, { tokens: ['sidorov'] }]);
    assert.deepEqual(nameReadings('Ivan S1d0r0v').readings.map((r) => r.tokens.join(' ')), ['ivan s1d0r0v', 'ivan sidorov', 'ivan sldorov']);
    assert.deepEqual(nameReadings('IvanSidorov').readings, [{ tokens: ['ivansidorov'] }, { tokens: ['ivan', 'sidorov'], groups: [0, 0] }]);
    assert.deepEqual(nameReadings('GmbH').readings, [{ tokens: ['gmbh'] }], 'a capital alone at the end starts no word');
    assert.deepEqual(nameReadings('SIDOROV, Ivan', 'person', 'listed').readings, [{ tokens: ['sidorov', 'ivan'] }]);
    assert.deepEqual(nameReadings('Okonkwo-Bellamy').readings, [{ tokens: ['okonkwo', 'bellamy'] }, { tokens: ['okonkwobellamy'] }]);
  });

  it('listed names written with a hyphen match joined or apart, and the other way round', () => {
    assert.equal(sample.screen(person('Darius Okonkwobellamy'))[0]?.nameScore, 1);
    assert.equal(sample.screen(person('Darius Okonkwo Bellamy'))[0]?.nameScore, 1);
    assert.equal(sample.screen(person('Khalid Yusuf Almansouri'))[0]?.nameScore, 1);
  });

  it('cutting and joining raise no hit the words themselves would not', () => {
    const index = new ScreeningIndex([individual(1, 'DONALD, John'), individual(2, 'ARTHUR, John'), individual(3, 'SON, Robert'), individual(4, 'MIRA, Anna'), individual(5, 'TOSENSON, Lokaa Tervino')]);
    for (const name of ['John McDonald', 'John MacArthur', 'Maria Robertson', 'Anna Elmira', 'Lokaa Tosenterov', 'Robert Sonnenfeld']) {
      assert.deepEqual(index.screen(person(name)), [], name);
    }
    assert.equal(index.screen(person('RobertSon'))[0]?.entryNumber, '3', 'written together, all of it');
    assert.equal(index.screen(person('Johnmac Donald')).length, 0, 'a word cut from another is not joined to the next');
    for (const name of ['Route 66 Trading', '7-Eleven Stores', '3M Company', 'A1 Logistics']) assert.deepEqual(sample.screen(entity(name)), [], name);
  });
});

const LEET: Record<string, string> = { o: '0', i: '1', l: '1', e: '3', a: '4', s: '5', t: '7', b: '8', g: '9', z: '2' };
const MARKS = ['-', '\u00b7', '.', '_', '\u2010', '\u2022', '/', '\u200b', '\u00ad', "'", '*', '~'];

/** Every Latin-script name and alias of the sample as its words, with a birth date its entry allows. */
const LISTED = entries.flatMap((e) => {
  const d = e.birthDates[0];
  const birthDate = d ? (d.day ?? (d.month ? `${d.month}-15` : `${d.fromYear}-06-15`)) : undefined;
  const kind = e.type === 'individual' ? ('person' as const) : ('entity' as const);
  return [e.name, ...e.aliases.map((a) => a.name)]
    .filter((n) => /^[\p{Script=Latin}\P{L}]*$/u.test(n))
    .map((name) => ({ entry: e.entryNumber, kind, words: name.split(/[\s,]+/).filter((w) => /\p{L}/u.test(w)), birthDate }));
});

const hits = (listed: (typeof LISTED)[number], name: string) => {
  const found = sample.screen({ kind: listed.kind, names: [name], ...(listed.birthDate ? { birthDate: listed.birthDate } : {}) });
  return found.some((h) => h.entryNumber === listed.entry && h.score >= DEFAULT_THRESHOLD);
};

describe('separator properties', () => {
  it('marks put anywhere inside the words of a listed name, or one space inside a word: still a hit', () => {
    const form = fc.constantFrom(...LISTED).chain((listed) =>
      fc.record({
        listed: fc.constant(listed),
        word: fc.nat(listed.words.length - 1),
        cuts: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...MARKS)), { minLength: 1, maxLength: 6 }),
        space: fc.option(fc.nat(), { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(form, ({ listed, word, cuts, space }) => {
        const words = [...listed.words];
        let w = words[word]!;
        if (space !== undefined && w.length > 1) {
          const at = 1 + (space % (w.length - 1));
          w = `${w.slice(0, at)} ${w.slice(at)}`;
        } else {
          for (const [at, mark] of cuts) {
            const i = 1 + (at % Math.max(1, w.length - 1));
            w = w.slice(0, i) + mark + w.slice(i);
          }
        }
        words[word] = w;
        assert.ok(hits(listed, words.join(' ')), words.join(' '));
      }),
      { numRuns: 800 },
    );
  });

  it('a listed name letter by letter, its words run together in any case, or digits for its letters: still a hit', () => {
    const form = fc.constantFrom(...LISTED).chain((listed) =>
      fc.record({
        listed: fc.constant(listed),
        how: fc.constantFrom('spaced', 'dotted', 'lower', 'upper', 'camel', 'leet'),
        word: fc.nat(listed.words.length - 1),
        leet: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
      }),
    );
    fc.assert(
      fc.property(form, ({ listed, how, word, leet }) => {
        const words = [...listed.words];
        const clean = words.map((w) => w.replace(/\P{L}/gu, ''));
        let name: string;
        if (how === 'spaced' || how === 'dotted') {
          words[word] = [...words[word]!].join(how === 'spaced' ? ' ' : '.');
          name = words.join(' ');
        } else if (how === 'lower') name = clean.join('').toLowerCase();
        else if (how === 'upper') name = clean.join('').toUpperCase();
        else if (how === 'camel') name = clean.map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase()).join('');
        else {
          // Digits for some letters of one word, keeping one letter at least: a word of digits alone is a number.
          const w = words[word]!;
          const swapped = [...w].map((c, i) => (leet[i] && LEET[c.toLowerCase()] ? LEET[c.toLowerCase()]! : c));
          if (!swapped.some((c) => /\p{L}/u.test(c))) swapped[0] = w[0]!;
          words[word] = swapped.join('');
          name = words.join(' ');
        }
        assert.ok(hits(listed, name), `${how}: ${name}`);
      }),
      { numRuns: 800 },
    );
  });
});

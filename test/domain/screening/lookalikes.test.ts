import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import unhomoglyph from 'unhomoglyph';
import { DEFAULT_THRESHOLD, ScreeningIndex } from '../../../src/domain/screening/engine.js';
import { loadListSync } from '../../../src/domain/screening/load.js';
import { lookalikeForms } from '../../../src/domain/screening/lookalikes.js';
import { nameTokens } from '../../../src/domain/screening/text.js';
import type { ListEntry, ScreeningSubject } from '../../../src/domain/screening/types.js';
import { listEntry, SAMPLE } from './helpers.js';

const entries = loadListSync({ label: 'OFAC-SAMPLE', path: SAMPLE, kind: 'folder' }).entries;
const sample = new ScreeningIndex(entries);
const top = (index: ScreeningIndex, subject: ScreeningSubject) => index.screen(subject)[0];
const person = (name: string, birthDate?: string): ScreeningSubject => ({ kind: 'person', names: [name], ...(birthDate ? { birthDate } : {}) });
const entity = (name: string): ScreeningSubject => ({ kind: 'entity', names: [name] });
const entry = (n: number, name: string, aliases: string[] = []): ListEntry =>
  listEntry(String(n), name, { aliases: aliases.map((a) => ({ name: a, aliasType: 'a.k.a.' })) });

describe('letters that look alike compare alike (UTS #39 confusables)', () => {
  it("the review's cases: a Cyrillic letter in a Latin name hits as the Latin name does", () => {
    const latin = top(sample, person('Ivan Sidorov', '1961-07-14'))!;
    const cyrillicS = top(sample, person('Ivan \u0405idorov', '1961-07-14'))!;
    assert.deepEqual([cyrillicS.entryNumber, cyrillicS.score, cyrillicS.nameScore, cyrillicS.agreed], ['90001', latin.score, latin.nameScore, ['name', 'birthDate']]);
    assert.deepEqual([top(sample, entity('Zir\u0441on Capital'))?.entryNumber, top(sample, entity('Zir\u0441on Capital'))?.nameScore], ['90014', 1], 'Cyrillic с');
    const northwind = top(sample, entity('Northwind \u0405hipping LLC'))!;
    assert.deepEqual([northwind.entryNumber, northwind.matchedAlias?.name, northwind.nameScore], ['90008', 'NORTHWIND SHIPPING LLC', 1]);
    // Р, В, Н, у, х: the letters the transliteration read by their sound.
    assert.equal(top(sample, person('\u0420etrovich Sidorov Ivan'))?.nameScore, 1);
    assert.equal(top(sample, entity('\u0412lue Lotus Trading'))?.entryNumber, '90009');
    assert.equal(top(sample, entity('NORT\u041dWIND SHIPPING'))?.entryNumber, '90008');
    assert.equal(top(sample, person('Wei Min Zhan\u0261'))?.nameScore, 1, 'Latin ɡ (script g) is g');
    // And no more: a name that is not a hit in Latin letters is none in lookalikes.
    for (const name of ['Ivan \u0420etrov', 'Mari\u0430 Rossi', 'Olg\u0430 Sidorenko', '\u0415lena Volkonsky', 'Wei Zh\u043eu']) {
      assert.equal(top(sample, person(name)), undefined, name);
    }
  });

  it('mixes of other scripts, a whole word in lookalikes, and other scripts than Cyrillic', () => {
    assert.deepEqual(nameTokens('\u03a4\u0410\u0425\u0399 Trading', 'entity').tokens, ['taxi', 'trading'], 'Greek Τ Ι with Cyrillic А Х: no Latin letter, still mixed');
    assert.deepEqual(nameTokens('\u03a4\u0391\u03a7\u0399').tokens, ['tachi'], 'ΤΑΧΙ, all Greek, by its sound');
    assert.equal(top(sample, person('\ua4e2\ua4f2\ua4d3\ua4f3\ua4e3\ua4f3\ua4e6 Ivan', '1961-07-14'))?.entryNumber, '90001', 'SIDOROV wholly in Lisu');
    assert.equal(top(sample, person('\u13a5van \u13da\u13a5dorov'))?.entryNumber, '90001', 'Cherokee Ꭵ and Ꮪ');
  });

  it('a word in one other script is read by its sound, and, unless listed, also as the Latin letters it looks like', () => {
    assert.equal(top(sample, person('\u0418\u0432\u0430\u043d \u0421\u0438\u0434\u043e\u0440\u043e\u0432'))?.entryNumber, '90001', 'Иван Сидоров');
    assert.equal(top(sample, person('\u0415\u043b\u0435\u043d\u0430 \u0412\u043e\u043b\u043a\u043e\u0432\u0430'))?.entryNumber, '90007', 'Елена Волкова');
    assert.deepEqual(nameTokens('\u0418\u0432\u0430\u043d \u0405idorov').tokens, ['ivan', 'sidorov'], 'Иван by its sound, Ѕidorov by its look');
    const index = new ScreeningIndex([entry(1, 'COBA, Ernesto'), entry(2, 'SOVA, Ernesto')]);
    assert.deepEqual(
      index.screen(person('\u0421\u041e\u0412\u0410 Ernesto')).map((h) => h.entryNumber).sort(),
      ['1', '2'],
      'СОВА is Sova by its sound and COBA by its look',
    );
    assert.deepEqual(lookalikeForms('\u0421\u043e\u0432\u0430'), { text: '\u0421\u043e\u0432\u0430' }, 'Сова: в looks like a small capital, not like b');
    // The lists' own Cyrillic is genuine: a listed ВЕТРОВ is Vetrov, not Betpob.
    const vetrov = new ScreeningIndex([entry(1, 'VETROV, Oleg', ['\u0412\u0415\u0422\u0420\u041e\u0412, \u041e\u043b\u0435\u0433'])]);
    assert.equal(vetrov.screen(person('Oleg Vetrov'))[0]?.nameScore, 1);
    assert.equal(vetrov.screen(person('Oleg Betpob')).length, 0);
  });
});

/** Every letter of another script that UTS #39 says looks like a Latin letter (its skeleton is ASCII letters). */
const skeleton = (c: string) => unhomoglyph(c.normalize('NFD')).normalize('NFD').replace(/\p{M}/gu, '');
const POOL: string[] = [];
for (let cp = 0x80; cp < 0x20000; cp++) {
  const c = String.fromCodePoint(cp);
  if (/\p{L}/u.test(c) && !/[\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u.test(c) && /^[A-Za-z]+$/.test(skeleton(c))) POOL.push(c);
}
const cased = (c: string) => c.toLowerCase() !== c.toUpperCase();
/** The letters that look like `letter` in its case: the same skeleton, and a capital for a capital (or no case). */
const lookalikesOf = (letter: string) => POOL.filter((c) => skeleton(c) === skeleton(letter) && (!cased(c) || (c === c.toUpperCase()) === (letter === letter.toUpperCase())));

/** Every Latin-script name and alias of the sample, with a birth date its entry allows. */
const LISTED = entries.flatMap((e) => {
  const d = e.birthDates[0];
  const birthDate = d ? (d.day ?? (d.month ? `${d.month}-15` : `${d.fromYear}-06-15`)) : undefined;
  const kind = e.type === 'individual' ? ('person' as const) : ('entity' as const);
  return [e.name, ...e.aliases.map((a) => a.name)].filter((n) => /^[\p{Script=Latin}\P{L}]*$/u.test(n)).map((name) => ({ entry: e.entryNumber, kind, name, birthDate }));
});

describe('lookalike properties', () => {
  it('any listed name of the sample with any of its letters swapped for a lookalike still hits, with or without the birth date', () => {
    assert.ok(POOL.length > 500 && lookalikesOf('S').includes('\u0405') && LISTED.length >= 20, 'over 500 letters of other scripts, the 20 and more Latin names of the sample');
    const swapped = fc
      .constantFrom(...LISTED)
      .chain((listed) => {
        const letters = [...listed.name].flatMap((c, i) => (lookalikesOf(c).length > 0 ? [i] : []));
        return fc.record({
          listed: fc.constant(listed),
          swaps: fc.uniqueArray(fc.constantFrom(...letters), { minLength: 1, maxLength: letters.length }).chain((at) => fc.tuple(...at.map((i) => fc.tuple(fc.constant(i), fc.constantFrom(...lookalikesOf([...listed.name][i]!)))))),
          withDate: fc.boolean(),
        });
      });
    fc.assert(
      fc.property(swapped, ({ listed, swaps, withDate }) => {
        const chars = [...listed.name];
        for (const [i, c] of swaps) chars[i] = c;
        const name = chars.join('');
        const hits = sample.screen({ kind: listed.kind, names: [name], ...(withDate && listed.birthDate ? { birthDate: listed.birthDate } : {}) });
        const hit = hits.find((h) => h.entryNumber === listed.entry);
        assert.ok(hit && hit.score >= DEFAULT_THRESHOLD, `${name} (${listed.name}) found ${JSON.stringify(hits.map((h) => h.entryNumber))}`);
      }),
      { numRuns: 1500 },
    );
  });
});

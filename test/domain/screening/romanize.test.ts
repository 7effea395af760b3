import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { romanizedSpellings } from '../../../src/domain/screening/romanize.js';

const CJK = /[\p{sc=Han}\p{sc=Hangul}\p{sc=Hiragana}\p{sc=Katakana}]/u;
const has = (text: string, spelling: string) => {
  const all = romanizedSpellings(text);
  assert.ok(all?.includes(spelling), `${text}: ${JSON.stringify(all)} has no ${spelling}`);
};

describe('romanizing Han, Hangul and kana names', () => {
  it('writes Chinese in pinyin without tones, a syllable per character, the surname read as one', () => {
    assert.deepEqual(romanizedSpellings('习近平'), ['xi jin ping']);
    assert.deepEqual(romanizedSpellings('習近平'), ['xi jin ping'], 'traditional characters');
    assert.deepEqual(romanizedSpellings('毛泽东'), ['mao ze dong']);
    assert.deepEqual(romanizedSpellings('李克强'), ['li ke qiang']);
    assert.deepEqual(romanizedSpellings('单雄信'), ['shan xiong xin'], '单 as a surname is Shan');
    assert.deepEqual(romanizedSpellings('吕布'), ['lu bu', 'lyu bu'], 'ü as u, then as a passport writes it');
    assert.deepEqual(romanizedSpellings('佐々木'), ['zuo zuo mu'], '々 repeats the character before it');
  });

  it('cuts a foreign name at its middle dot', () => {
    assert.deepEqual(romanizedSpellings('弗拉基米尔·普京'), ['fu la ji mi er pu jing']);
    assert.deepEqual(romanizedSpellings('ウラジーミル・プーチン'), ['urajimiru puchin', 'urajiimiru puuchin']);
  });

  it('writes Korean in Revised Romanization, then as Korean names are commonly written', () => {
    const kim = romanizedSpellings('김정은')!;
    assert.equal(kim[0], 'gim jeong eun', 'Revised Romanization first');
    assert.ok(kim.length <= 4);
    has('김정은', 'kim jong un');
    has('김일성', 'kim il sung');
    has('박근혜', 'park geun hye');
    has('박근혜', 'pak kun hye');
    has('최룡해', 'choe ryong hae');
    has('이명박', 'lee myeong bak');
    has('김 정은', 'kim jong un');
    assert.deepEqual(romanizedSpellings('정은')![0], 'jeong eun');
  });

  it('writes kana in Hepburn, long vowels as names write them, a kana word left whole', () => {
    assert.deepEqual(romanizedSpellings('アサハラ ショウコウ'), ['asahara shoko', 'asahara shoukou']);
    assert.deepEqual(romanizedSpellings('いのうえ'), ['inoue'], 'う before a vowel is not a long o');
    assert.deepEqual(romanizedSpellings('ｱｻﾊﾗ'), ['asahara'], 'half-width katakana');
    assert.deepEqual(romanizedSpellings('すゞき'), ['suzuki']);
    // Kanji in a Japanese name are read as Chinese: their readings need a dictionary this project does not ship.
    assert.deepEqual(romanizedSpellings('安倍晋三'), ['an bei jin san']);
    assert.deepEqual(romanizedSpellings('安倍しんぞう'), ['an bei shinzo', 'an bei shinzou']);
  });

  it('leaves other text as it is, a romanized run apart from the words it touches', () => {
    assert.deepEqual(romanizedSpellings('Ivan 习近平'), ['Ivan xi jin ping']);
    assert.deepEqual(romanizedSpellings('XI Jinping (习近平)'), ['XI Jinping (xi jin ping)']);
    assert.deepEqual(romanizedSpellings('Иван习近平'), ['Иван xi jin ping']);
    assert.deepEqual(romanizedSpellings('Mr. 김정은'), ['Mr. gim jeong eun', 'Mr. kim jeong eun', 'Mr. kim jong un', 'Mr. kim jung eun']);
    assert.deepEqual(romanizedSpellings('X·習近平'), ['X xi jin ping']);
  });

  it('is undefined for text without Han, Hangul or kana', () => {
    for (const text of ['', 'XI Jinping', 'Иван Сидоров', 'محمد', 'Ο Παπαδόπουλος', 'ー', 'A·B']) assert.equal(romanizedSpellings(text), undefined, text);
  });

  it('writes no Han, Hangul or kana, at most four spellings, the same for the same text', () => {
    const ranges: [number, number][] = [[0x3000, 0x30ff], [0x3100, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xac00, 0xd7a3], [0x1100, 0x11ff], [0xa960, 0xa97f], [0xd7b0, 0xd7ff], [0xf900, 0xfaff], [0xff00, 0xffef], [0x1b000, 0x1b16f], [0x20000, 0x2a6df], [0x0300, 0x036f]];
    const cjk = fc.oneof(...ranges.map(([min, max]) => fc.integer({ min, max }).map((c) => String.fromCodePoint(c))));
    const unit = fc.oneof(cjk, cjk, fc.constantFrom(' ', '·', '・', 'ー', 'a', 'Z', '-', '(', '\u3099'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 16 }), (text) => {
        const out = romanizedSpellings(text);
        assert.deepEqual(romanizedSpellings(text), out);
        if (!CJK.test(text)) return assert.equal(out, undefined);
        assert.ok(out !== undefined && out.length >= 1 && out.length <= 4);
        for (const s of out) assert.ok(!CJK.test(s), `${text}: ${s}`);
        assert.equal(new Set(out).size, out.length);
      }),
      { numRuns: 3000 },
    );
  });
});

import anyAscii from 'any-ascii';
import type * as EsHangul from 'es-hangul';
import type * as PinyinPro from 'pinyin-pro';
import type * as Wanakana from 'wanakana';
import { onFirstUse } from '../../on-first-use.js';

// Loaded with the first name in these scripts: pinyin-pro's dictionary alone is 4 MB of heap.
const pinyinPro = onFirstUse<typeof PinyinPro>('pinyin-pro');
const esHangul = onFirstUse<typeof EsHangul>('es-hangul');
const wanakana = onFirstUse<typeof Wanakana>('wanakana');

/**
 * Han, Hangul and kana names in Latin letters, syllable by syllable, the way lists write them (issue 52): any-ascii
 * writes 习近平 as one word `xijinping`, which shares nothing with the listed `XI Jinping`.
 *
 * - Han: pinyin without tones (pinyin-pro), one syllable per character, the text's first Han run read as starting
 *   with a surname (单 is Shan, not Dan); ü is `u`, and also `yu` (a Chinese passport's 吕 is LYU).
 * - Hangul: Revised Romanization (es-hangul) syllable by syllable, then up to three spellings Korean names are
 *   commonly written with: the usual spelling of the surname (김 Kim, 박 Park) with the given name in Revised
 *   Romanization (Park Geun Hye); McCune–Reischauer-like, as North Korean names are (Kim Jong Un, Pak Kun Hye);
 *   and South Korean habit, ㅓ and ㅕ written u and yu (Kim Il Sung, Lee Myung Bak).
 * - Kana: Hepburn (wanakana) with long vowels as names write them (ショウコウ is shoko, プーチン puchin), then as
 *   typed (shoukou, puuchin). A run of kana is one word: words are cut only where the text cuts them (・, space).
 * - Kanji in a Japanese name are read as Chinese (安倍晋三 is `an bei jin san`, not Abe Shinzo): their Japanese
 *   readings need a dictionary of names this project does not ship, and a name wholly in kanji cannot be told from a
 *   Chinese one anyway. Kana beside them are romanized as Japanese.
 * Everything else is left as it is, a middle dot (·, ・) beside a romanized run becoming a space.
 */

const CJK = /[\p{sc=Han}\p{sc=Hangul}\p{sc=Hiragana}\p{sc=Katakana}]/u;
// A run of one script, with the combining marks (voicing marks, variation selectors) that follow its characters and,
// in kana, the long-vowel mark.
const RUNS = /(\p{sc=Han}[\p{sc=Han}\p{M}]*)|(\p{sc=Hangul}[\p{sc=Hangul}\p{M}]*)|([\p{sc=Hiragana}\p{sc=Katakana}][\p{sc=Hiragana}\p{sc=Katakana}\p{M}\u30FC\uFF70]*)/gu;
const DOT = /^[\u00B7\u30FB\uFF65\u2027\u2022]/u;
const DOT_END = /[\u00B7\u30FB\uFF65\u2027\u2022]$/u;

/** The Latin spellings of a name containing Han, Hangul or kana: each such run written as syllables separated by spaces,
 *  the script's standard romanization first, then the spellings names conventionally use; other text unchanged.
 *  Undefined when the text has none of these scripts. */
export function romanizedSpellings(text: string): string[] | undefined {
  if (!CJK.test(text)) return undefined;
  // Pieces of the text in order: other text as it is, each run as its spellings (the first the standard one).
  const pieces: (string | string[])[] = [];
  let at = 0;
  let hanSeen = false;
  let hangulSeen = false;
  for (const m of text.matchAll(RUNS)) {
    if (m.index > at) pieces.push(text.slice(at, m.index));
    if (m[1] !== undefined) {
      pieces.push(hanSpellings(m[1], !hanSeen));
      hanSeen = true;
    } else if (m[2] !== undefined) {
      pieces.push(hangulSpellings(m[2], !hangulSeen));
      hangulSeen = true;
    } else pieces.push(kanaSpellings(m[3]!));
    at = m.index + m[0].length;
  }
  if (at < text.length) pieces.push(text.slice(at));
  const count = Math.max(...pieces.map((p) => (typeof p === 'string' ? 1 : p.length)));
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    // Spelling k takes each run's k-th spelling, or its last: as many spellings as the run with most, not their product.
    const spelling = joined(pieces.map((p, i) => (typeof p === 'string' ? other(p, pieces[i - 1], pieces[i + 1]) : (p[k] ?? p[p.length - 1]!))), pieces);
    if (!out.includes(spelling)) out.push(spelling);
  }
  return out;
}

/** Other text, a middle dot that touches a run made a space. */
function other(text: string, before: unknown, after: unknown): string {
  let t = text;
  if (Array.isArray(before)) t = t.replace(DOT, ' ');
  if (Array.isArray(after)) t = t.replace(DOT_END, ' ');
  return t;
}

/** The pieces joined, a romanized run kept apart by a space from a letter or digit it touches. */
function joined(texts: string[], pieces: (string | string[])[]): string {
  let out = '';
  let apart = false;
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i]!;
    apart ||= Array.isArray(pieces[i]);
    if (t === '') continue;
    if (apart && /[\p{L}\p{N}]$/u.test(out) && /^[\p{L}\p{N}]/u.test(t)) out += ' ';
    out += t;
    apart = Array.isArray(pieces[i]);
  }
  return out;
}

/** A syllable some library left outside a-z (a character it does not know): its any-ascii letters, or nothing. */
function latin(syllable: string, source: string): string {
  return /^[a-z]+$/.test(syllable) ? syllable : anyAscii(source).toLowerCase().replace(/[^a-z]/g, '');
}

const syllables = (list: string[]): string => list.filter((s) => s !== '').join(' ');

// ---- Han ----

function hanSpellings(run: string, first: boolean): string[] {
  const chars = [...run.normalize('NFKC').replace(/\p{M}/gu, '')];
  let read = pinyinPro().pinyin(chars.join(''), { toneType: 'none', type: 'array', surname: first ? 'head' : 'off' });
  // One syllable per character (a character pinyin-pro does not know comes back as itself); if not, each alone.
  if (read.length !== chars.length) read = chars.map((c) => pinyinPro().pinyin(c, { toneType: 'none' }));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const s = read[i]!;
    // 々 repeats the character before it (佐々木).
    out.push(c === '\u3005' ? (out[out.length - 1] ?? '') : /^[a-zü]+$/.test(s) ? s : latin('', c));
  }
  const u = syllables(out).replace(/ü/g, 'u');
  return out.some((s) => s.includes('ü')) ? [u, syllables(out).replace(/ü/g, 'yu')] : [u];
}

// ---- Hangul ----

// Syllable U+AC00 + (initial × 21 + vowel) × 28 + final; each spelling's letters by index.
const INITIAL_MR = ['k', 'kk', 'n', 't', 'tt', 'r', 'm', 'p', 'pp', 's', 'ss', '', 'j', 'jj', 'ch', 'k', 't', 'p', 'h'];
const INITIAL_RR = ['g', 'kk', 'n', 'd', 'tt', 'r', 'm', 'b', 'pp', 's', 'ss', '', 'j', 'jj', 'ch', 'k', 't', 'p', 'h'];
const VOWEL_RR = ['a', 'ae', 'ya', 'yae', 'eo', 'e', 'yeo', 'ye', 'o', 'wa', 'wae', 'oe', 'yo', 'u', 'wo', 'we', 'wi', 'yu', 'eu', 'ui', 'i'];
const VOWEL_MR = VOWEL_RR.map((v) => ({ eo: 'o', yeo: 'yo', eu: 'u' })[v] ?? v);
const VOWEL_SOUTH = VOWEL_RR.map((v) => ({ eo: 'u', yeo: 'yu' })[v] ?? v);
const FINAL = ['', 'k', 'k', 'k', 'n', 'n', 'n', 't', 'l', 'k', 'm', 'l', 'l', 'l', 'p', 'l', 'm', 'p', 'p', 't', 't', 'ng', 't', 't', 'k', 't', 'p', 't'];

/**
 * Common surnames as they are usually written: [South Korean, North Korean / McCune–Reischauer (when another),
 * a third spelling (when one is common)]. Each is used by the spelling of the same style; the first stands in.
 */
const SURNAMES: Record<string, readonly string[]> = {
  김: ['kim'], 이: ['lee', 'ri', 'yi'], 리: ['ri', 'ri', 'lee'], 박: ['park', 'pak'], 최: ['choi', 'choe'], 정: ['jung', 'jong', 'chung'],
  강: ['kang'], 조: ['cho', 'cho', 'jo'], 윤: ['yoon', 'yun'], 장: ['jang', 'chang'], 임: ['lim', 'im'], 림: ['rim', 'rim', 'lim'],
  한: ['han'], 오: ['oh', 'o'], 서: ['seo', 'so', 'suh'], 신: ['shin', 'sin'], 권: ['kwon'], 황: ['hwang'], 안: ['ahn', 'an'],
  송: ['song'], 류: ['ryu', 'ryu', 'yoo'], 유: ['yoo', 'yu'], 홍: ['hong'], 전: ['jeon', 'jon', 'chun'], 고: ['ko'],
  문: ['moon', 'mun'], 양: ['yang'], 량: ['ryang', 'ryang', 'yang'], 손: ['son'], 배: ['bae', 'pae'], 백: ['baek', 'paek'],
  허: ['heo', 'ho', 'huh'], 남: ['nam'], 심: ['shim', 'sim'], 노: ['roh', 'no'], 로: ['ro', 'ro', 'roh'], 하: ['ha'],
  곽: ['kwak'], 성: ['sung', 'song'], 차: ['cha'], 주: ['joo', 'ju'], 우: ['woo', 'u'], 구: ['koo', 'ku'], 민: ['min'],
  진: ['jin', 'chin'], 지: ['ji', 'chi'], 엄: ['eom', 'om', 'um'], 채: ['chae'], 원: ['won'], 천: ['cheon', 'chon'],
  방: ['bang', 'pang'], 공: ['kong'], 현: ['hyun', 'hyon'], 변: ['byun', 'pyon'], 염: ['yeom', 'yom'], 렴: ['ryom'],
  추: ['choo', 'chu'], 도: ['do', 'to'], 석: ['seok', 'sok'], 선: ['sun', 'son'], 길: ['gil', 'kil'], 연: ['yeon', 'yon'],
  명: ['myung', 'myong'], 기: ['ki'], 반: ['ban', 'pan'], 금: ['keum', 'kum'], 육: ['yook', 'yuk'], 국: ['kook', 'kuk'],
};

/**
 * Revised Romanization (es-hangul, each syllable alone: 근 is geun, 박 bak), then the surname's usual spelling with
 * the given name in Revised Romanization (park geun hye), McCune–Reischauer-like (each syllable written as a word's
 * start: 근 kun, 정 jong; ㅓ o, ㅡ u: pak kun hye, kim jong un) and South Korean habit (ㅓ u, ㅕ yu: kim il sung).
 */
function hangulSpellings(run: string, first: boolean): string[] {
  const chars = [...run.normalize('NFKC').replace(/\p{M}/gu, '')];
  const rr: string[] = [];
  const mr: string[] = [];
  const south: string[] = [];
  for (const c of chars) {
    const s = c.charCodeAt(0) - 0xac00;
    if (s < 0 || s >= 11172) {
      // A jamo written alone, or an old letter: es-hangul knows the compatibility jamo (ㄱ), any-ascii the rest.
      const l = latin(esHangul().romanize(c), c);
      for (const spelling of [rr, mr, south]) spelling.push(l);
      continue;
    }
    const initial = Math.floor(s / 588);
    const vowel = Math.floor((s % 588) / 28);
    const final = FINAL[s % 28]!;
    rr.push(latin(esHangul().romanize(c), c));
    mr.push(INITIAL_MR[initial]! + VOWEL_MR[vowel]! + final);
    // 영 is written Young.
    south.push((INITIAL_RR[initial]! + VOWEL_SOUTH[vowel]! + final).replace(/^yung$/, 'young'));
  }
  const usual = rr.slice();
  const surname = first ? SURNAMES[chars[0] ?? ''] : undefined;
  if (surname !== undefined) {
    usual[0] = surname[0]!;
    mr[0] = surname[1] ?? surname[0]!;
    south[0] = surname[2] ?? surname[0]!;
  }
  // Not made unique here: the k-th spelling of every run of the text is of one style (the caller makes them unique).
  return [rr, usual, mr, south].map(syllables);
}

// ---- Kana ----

// Kana wanakana romanizes (ぁ–ゔ, ァ–ヴ) and the long-vowel mark; others (ヶ, ヷ, small ㇰ…) go to any-ascii.
const WANAKANA_KANA = /^[\u3041-\u3094\u30A1-\u30F4\u30FC]$/u;

/** Hepburn with long vowels as names write them (shoko, puchin), then as typed (shoukou, puuchin). */
function kanaSpellings(run: string): string[] {
  let text = '';
  let before = '';
  for (const c of run.normalize('NFKC')) {
    // ゝ and ヽ repeat the kana before them, ゞ and ヾ voiced.
    const k = /[\u309D\u30FD]/u.test(c) ? before : /[\u309E\u30FE]/u.test(c) ? (before + '\u3099').normalize('NFC') : c;
    text += k === '' || WANAKANA_KANA.test(k) ? k : latin('', k);
    if (k !== '\u30FC') before = k;
  }
  const typed = wanakana().toRomaji(text).replace(/'/g, '').toLowerCase();
  // wanakana writes ー as its vowel again (puuchin): names leave it out (puchin).
  const spoken = (text.includes('\u30FC') ? wanakana().toRomaji(text.replace(/\u30FC/gu, '')).replace(/'/g, '').toLowerCase() : typed)
    .replace(/oo/g, 'o')
    .replace(/ou(?![aeiou])/g, 'o')
    .replace(/uu/g, 'u');
  return [spoken, typed].map((s) => latin(s, s));
}

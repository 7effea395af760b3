/**
 * The ways one name may be written apart or together, read from its lower-case ASCII form: besides its words as
 * written (every mark between letters starts a word), the words with the marks inside them taken out (Si-dorov,
 * Si·dorov and S.i.d.o.r.o.v are Sidorov) and letters standing alone in a row joined (S i d o r o v), the words split
 * where a capital follows a small letter (IvanSidorov), and digits and signs read as the letters they stand for in a
 * word that also has letters (S1d0r0v, $idorov). Each is a *spelling*; the matcher compares every spelling and keeps
 * the best.
 */
export interface Spelling {
  tokens: string[];
  /**
   * Per token, the word it was cut from, or -1: tokens cut from one word by a capital count only when every one of
   * them is paired (IvanSidorov may be Ivan Sidorov; MacArthur is not Arthur).
   */
  groups?: number[];
  /** Cut by the lists' own words (segment.ts): a grouped token pairs only with a word it equals, and none is left over. */
  exact?: boolean;
}

/** Where a small letter was followed by a capital, marked before the name is put in lower case. */
export const CASE_BREAK = '\u0001';

/** What separates words; any other mark between letters is inside a word. */
const SEPARATORS = /[\s,;:()[\]{}"&<>]+/;
const PIECE = /[a-z0-9@$\u0001]+/g;
const SIGNS = /[@$\u0001]/g;
/** Digits and signs used as letters (1 is i or l: both are tried). */
const AS_LETTERS: Record<string, string> = { '0': 'o', '2': 'z', '3': 'e', '4': 'a', '5': 's', '6': 'g', '7': 't', '8': 'b', '9': 'g', '@': 'a', $: 's' };

const plain = (raw: string) => raw.replace(SIGNS, '');

function asLetters(raw: string, one: string): string {
  const text = raw.replaceAll(CASE_BREAK, '');
  if (!/[a-z]/.test(text) || !/[0-9@$]/.test(text)) return plain(text);
  return text.replace(/[0-9@$]/g, (c) => (c === '1' ? one : AS_LETTERS[c]!));
}

/** Runs of two or more one-character tokens, a letter among them, written as one (S i d o r o v, I. P.). */
function joinRuns(tokens: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; ) {
    let j = i;
    while (j < tokens.length && plain(tokens[j]!).length === 1) j++;
    const run = tokens.slice(i, j);
    if (run.length >= 2 && run.some((t) => /[a-z]/.test(t))) {
      out.push(run.join(''));
      i = j;
    } else {
      out.push(tokens[i]!);
      i++;
    }
  }
  return out;
}

export function spellings(text: string): Spelling[] {
  // Most names: words of letters between spaces or commas, none a letter alone, have no other spelling.
  if (/^[a-z\s,]*$/.test(text)) {
    const tokens = text.split(/[\s,]+/).filter(Boolean);
    if (!tokens.some((t) => t.length === 1)) return [{ tokens }];
  }
  const words = text
    .split(SEPARATORS)
    .map((w) => w.match(PIECE)?.filter((p) => plain(p) !== '') ?? [])
    .filter((w) => w.length > 0);
  const pieces = words.flat();
  const joined = joinRuns(words.map((w) => w.join('')));
  const out: Spelling[] = [{ tokens: pieces.map(plain) }, { tokens: joined.map(plain) }];
  if (text.includes(CASE_BREAK)) {
    const tokens: string[] = [];
    const groups: number[] = [];
    pieces.forEach((piece, i) => {
      const parts = piece.split(CASE_BREAK).map(plain).filter(Boolean);
      tokens.push(...parts);
      groups.push(...parts.map(() => (parts.length > 1 ? i : -1)));
    });
    out.push({ tokens, groups });
  }
  if (/[0-9@$]/.test(text)) {
    for (const one of text.includes('1') ? ['i', 'l'] : ['i']) {
      out.push({ tokens: pieces.map((p) => asLetters(p, one)) }, { tokens: joined.map((p) => asLetters(p, one)) });
    }
  }
  return out;
}

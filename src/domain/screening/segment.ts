import type { Spelling } from './spellings.js';

/** The shortest listed word a long one is cut into: two-letter pieces would cut too many words by chance. */
const MIN_PIECE = 3;
/** Group numbers of cut words, apart from those spellings.ts gives (a token's index). */
const GROUP_BASE = 1000;

/**
 * A word written as several listed words together, whatever its case (IVANSIDOROV, northwindshippingllc): cut into
 * the fewest words the lists hold (each of MIN_PIECE letters or more), or, after the first, that matching leaves out
 * (`left`: al, el, and a company's legal forms), which then go (Elmira is not El Mira, whom a list may hold as Mira). Only a word the lists do not hold as it is, of letters only; the
 * pieces then all have to pair with listed words they equal (scoreNames' groups), so Robertson is not Robert on its
 * own and Tosenterov is not Tosenson Tervino. Undefined when no word of the spelling is cut.
 */
export function segmented(spelling: Spelling, vocabulary: ReadonlySet<string>, left: (word: string) => boolean): Spelling | undefined {
  let cutAny = false;
  const tokens: string[] = [];
  const groups: number[] = [];
  spelling.tokens.forEach((token, i) => {
    const pieces = token.length >= 2 * MIN_PIECE && !vocabulary.has(token) && /^[a-z]+$/.test(token) ? cut(token, vocabulary, left) : undefined;
    const kept = pieces?.filter((p) => !left(p)) ?? [];
    if (kept.length > 0) {
      cutAny = true;
      tokens.push(...kept);
      groups.push(...kept.map(() => GROUP_BASE + i));
    } else {
      tokens.push(token);
      groups.push(spelling.groups?.[i] ?? -1);
    }
  });
  return cutAny ? { tokens, groups, exact: true } : undefined;
}

/** The fewest pieces (two or more) `token` is made of, by dynamic programming over where pieces end. */
function cut(token: string, vocabulary: ReadonlySet<string>, left: (word: string) => boolean): string[] | undefined {
  const n = token.length;
  // fewest[i]: the fewest pieces making token.slice(0, i); from[i]: where the last of them starts.
  const fewest = new Array<number>(n + 1).fill(Infinity);
  const from = new Array<number>(n + 1).fill(-1);
  fewest[0] = 0;
  for (let start = 0; start < n; start++) {
    if (fewest[start] === Infinity) continue;
    for (let end = start + 2; end <= n; end++) {
      const piece = token.slice(start, end);
      if (!((start > 0 && left(piece)) || (piece.length >= MIN_PIECE && vocabulary.has(piece)))) continue;
      if (fewest[start]! + 1 < fewest[end]!) {
        fewest[end] = fewest[start]! + 1;
        from[end] = start;
      }
    }
  }
  if (fewest[n] === Infinity || fewest[n]! < 2) return undefined;
  const pieces: string[] = [];
  for (let end = n; end > 0; end = from[end]!) pieces.unshift(token.slice(from[end]!, end));
  return pieces;
}

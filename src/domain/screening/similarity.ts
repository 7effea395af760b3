/**
 * Jaro-Winkler similarity of two strings, 0 (nothing in common) to 1 (equal). Symmetric by construction: the pair is
 * put in one order before it is measured (the textbook algorithm can count transpositions differently both ways).
 * The Winkler bonus rewards a common prefix of up to 4 characters, 0.1 a character, as usual.
 */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const [s, t] = a < b ? [a, b] : [b, a];
  const jaro = jaroOf(s, t);
  if (jaro === 0) return 0;
  let prefix = 0;
  const limit = Math.min(4, s.length, t.length);
  while (prefix < limit && s.charCodeAt(prefix) === t.charCodeAt(prefix)) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

// Reused between calls: names are short, and screening runs one comparison at a time.
let matchedS = new Uint8Array(64);
let matchedT = new Uint8Array(64);

function jaroOf(s: string, t: string): number {
  const sl = s.length;
  const tl = t.length;
  if (sl === 0 || tl === 0) return 0;
  if (sl > matchedS.length || tl > matchedT.length) {
    matchedS = new Uint8Array(Math.max(sl, tl) * 2);
    matchedT = new Uint8Array(Math.max(sl, tl) * 2);
  }
  matchedS.fill(0, 0, sl);
  matchedT.fill(0, 0, tl);
  const window = Math.max(0, Math.floor(Math.max(sl, tl) / 2) - 1);
  let matches = 0;
  for (let i = 0; i < sl; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(tl - 1, i + window);
    const c = s.charCodeAt(i);
    for (let j = from; j <= to; j++) {
      if (matchedT[j] === 0 && t.charCodeAt(j) === c) {
        matchedS[i] = 1;
        matchedT[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < sl; i++) {
    if (matchedS[i] === 0) continue;
    while (matchedT[k] === 0) k++;
    if (s.charCodeAt(i) !== t.charCodeAt(k)) transpositions++;
    k++;
  }
  return (matches / sl + matches / tl + (matches - transpositions / 2) / matches) / 3;
}

// Reused between calls, as above: three rows of the edit-distance table.
let rowA = new Uint16Array(32);
let rowB = new Uint16Array(32);
let rowC = new Uint16Array(32);

/**
 * The optimal-string-alignment distance (Damerau-Levenshtein without repeated edits of one substring): the fewest
 * insertions, deletions, substitutions and swaps of two adjacent letters that make one string the other. Jaro-Winkler
 * alone forgives too much in long words sharing a prefix (Zuckermann and Zuckerberg 0.92); the distance counts the
 * letters that differ.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const n = b.length;
  if (a.length === 0 || n === 0) return Math.max(a.length, n);
  if (n + 1 > rowA.length) {
    rowA = new Uint16Array((n + 1) * 2);
    rowB = new Uint16Array((n + 1) * 2);
    rowC = new Uint16Array((n + 1) * 2);
  }
  // prev2: row i-2, prev: row i-1, cur: row i.
  let prev2 = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
    }
    const spare = prev2;
    prev2 = prev;
    prev = cur;
    cur = spare;
  }
  return prev[n]!;
}

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

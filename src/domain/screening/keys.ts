/**
 * The keys that make two words candidates for one another (docs/screening.md#candidates). The index finds a listed
 * name by the keys of its words, and the score pairs two words only when they share a key (`shareKey`, tested equal to
 * intersecting `keysOf`), so that no pair the score would count is out of the index's reach: blocking costs no recall.
 *
 * A word's keys: itself; its consonants (text.ts `consonants`: Mohammed and Muhammad); its sound class (`soundClass`: Gaddafi and Qadhafi, Mikhail and
 * Michael, Yevgeny and Evgeniy), both also when a single letter in a word of four letters or fewer; its first four letters from five letters on (Petrovich and Petrovitch); and, from
 * three letters, itself and (from four) each way of leaving one letter out under one prefix, which two words one typo
 * apart share (a letter changed, added, dropped, two swapped, anywhere: Serei and Sergei, Marcon and Macron).
 */

// Letters by how they sound, as Soundex groups them; vowels, h, w and y are dropped.
const CLASS: Record<string, string> = { b: '1', f: '1', p: '1', v: '1', c: '2', g: '2', j: '2', k: '2', q: '2', s: '2', x: '2', z: '2', d: '3', t: '3', l: '4', m: '5', n: '5', r: '6' };

/** The sound class of a word's first letter (undefined for a vowel, h, w or y). */
export function firstClass(token: string): string | undefined {
  return CLASS[token[0] ?? ''];
}

/** A word's consonants by sound class, repeats once: a coarse key, never a similarity. */
export function soundClass(token: string): string {
  let out = '';
  for (let i = 0; i < token.length; i++) {
    // ch and kh are h (Charalampos, Haralambos), as in consonants().
    if (token[i + 1] === 'h' && (token[i] === 'c' || token[i] === 'k')) continue;
    const c = CLASS[token[i]!];
    if (c !== undefined && out[out.length - 1] !== c) out += c;
  }
  return out;
}

/** Words of up to four letters are also keyed by a single consonant or sound (Un and On, Ahn and An, Aziz and عزيز). */
const SHORT = 4;

export function keysOf(token: string, skeleton: string, sound: string): string[] {
  if (token.length < 2) return [];
  const keys = [`=${token}`];
  if (skeleton.length >= 2 || (skeleton.length === 1 && token.length <= SHORT)) keys.push(`~${skeleton}`);
  if (sound.length >= 2 || (sound.length === 1 && token.length <= SHORT)) keys.push(`#${sound}`);
  if (token.length >= 5) keys.push(`^${token.slice(0, 4)}`);
  if (token.length >= 3) keys.push(`-${token}`);
  if (token.length >= 4) for (let i = 0; i < token.length; i++) if (token[i] !== token[i - 1]) keys.push(`-${token.slice(0, i)}${token.slice(i + 1)}`);
  return keys;
}

/** Whether the words' one-letter-out keys meet (the `-` keys of keysOf), without building them. */
function oneLetterApart(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (la !== lb) {
    if (Math.abs(la - lb) !== 1) return false;
    const [s, l] = la < lb ? [a, b] : [b, a];
    if (s.length < 3) return false;
    let i = 0;
    while (i < s.length && s.charCodeAt(i) === l.charCodeAt(i)) i++;
    for (let k = i; k < s.length; k++) if (s.charCodeAt(k) !== l.charCodeAt(k + 1)) return false;
    return true;
  }
  if (la < 4) return a === b && la >= 3;
  let p = 0;
  while (p < la && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  if (p === la) return true;
  let s = 0;
  while (s < la && a.charCodeAt(la - 1 - s) === b.charCodeAt(la - 1 - s)) s++;
  if (p + s >= la - 1) return true;
  // One letter out of each at different places: between the common prefix and suffix, one is the other shifted.
  let left = true;
  let right = true;
  for (let k = p; k < la - 1 - s; k++) {
    if (a.charCodeAt(k + 1) !== b.charCodeAt(k)) left = false;
    if (b.charCodeAt(k + 1) !== a.charCodeAt(k)) right = false;
  }
  return left || right;
}

/** Whether two words (of two letters or more) share a key of keysOf. */
export function shareKey(a: string, b: string, skeletonA: string, skeletonB: string, soundA: string, soundB: string): boolean {
  if (a.length < 2 || b.length < 2) return false;
  if (a === b) return true;
  if (skeletonA === skeletonB && (skeletonA.length >= 2 || (skeletonA.length === 1 && a.length <= SHORT && b.length <= SHORT))) return true;
  if (soundA === soundB && (soundA.length >= 2 || (soundA.length === 1 && a.length <= SHORT && b.length <= SHORT))) return true;
  if (a.length >= 5 && b.length >= 5 && a.charCodeAt(0) === b.charCodeAt(0) && a.startsWith(b.slice(0, 4))) return true;
  return oneLetterApart(a, b);
}

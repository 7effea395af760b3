import { jaroWinkler } from './similarity.js';
import { consonants } from './text.js';

/** How alike two names are (docs/screening.md#matching-and-the-score): their words paired in any order. */

/** What an initial (`I.`) is worth against a name it begins. */
const INITIAL = 0.9;
/** Below this a pair of tokens does not count as the same word. */
const TOKEN_FLOOR = 0.75;
/**
 * Each token one side has and the other has not, when both have at least two: Ivan Sidorov is 0.9 against Ivan
 * Petrovich Sidorov (a hit at the default threshold, more so with the birth date), Ivan Petrov 0.87 (not one).
 */
const EXTRA_TOKEN = 0.1;
/** Each extra token when one side is a single word (`Ivan` is not `Ivan Trading`). */
const EXTRA_TOKEN_SINGLE = 0.15;
/** A consonant match (Arabic script, where vowels are not written) is worth a little less than the same letters. */
const CONSONANT_MATCH = 0.95;

/** How alike two tokens are, 0 to 1: equal, an initial and a word it begins, Jaro-Winkler, or their consonants. */
export function tokenSimilarity(a: string, b: string, arabic = false, skeletonA = '', skeletonB = ''): number {
  if (a === b) return a.length === 1 ? INITIAL : 1;
  if (a.length === 1 || b.length === 1) return (a.length === 1 ? b.startsWith(a) : a.startsWith(b)) ? INITIAL : 0;
  let sim = jaroWinkler(a, b);
  if (arabic && skeletonA.length > 0 && skeletonB.length > 0) sim = Math.max(sim, CONSONANT_MATCH * jaroWinkler(skeletonA, skeletonB));
  return sim >= TOKEN_FLOOR ? sim : 0;
}

/**
 * Adjacent tokens of `a` written as one in `b` (Abdul Rahman and Abdulrahman; عبد الله and Abdallah by consonants)
 * are joined, so that both count as one word.
 */
function joinAdjacent(a: { tokens: string[]; skeletons: string[] }, b: { tokens: string[]; skeletons: string[] }, arabic: boolean): { tokens: string[]; skeletons: string[] } {
  if (a.tokens.length < 2) return a;
  const words = new Set(b.tokens);
  const skeletons = arabic ? new Set(b.skeletons.filter((s) => s.length >= 3)) : new Set<string>();
  const tokens: string[] = [];
  const skels: string[] = [];
  for (let i = 0; i < a.tokens.length; i++) {
    const next = a.tokens[i + 1];
    if (next !== undefined) {
      const joined = a.tokens[i]! + next;
      const joinedSkeleton = consonants(joined);
      // Initials join only into a word the other name writes (S idorov), not by their consonants.
      if (words.has(joined) || (a.tokens[i]!.length > 1 && next.length > 1 && skeletons.has(joinedSkeleton))) {
        tokens.push(joined);
        skels.push(joinedSkeleton);
        i++;
        continue;
      }
    }
    tokens.push(a.tokens[i]!);
    skels.push(a.skeletons[i]!);
  }
  return { tokens, skeletons: skels };
}

/**
 * How alike two names are, 0 to 1, whatever their word order: each word of the shorter name is paired with its most
 * similar word of the other (greedily, best pairs first), the similarities averaged over the shorter name, less
 * EXTRA_TOKEN for each word only the longer one has. At least one pair must be two whole words (not initials), and
 * the query's words cut from one word (`groups`, spellings.ts) are all paired, or the spelling does not match. A
 * spelling cut by the lists' own words (`exact`, segment.ts) matches only with its cut words paired with words they
 * equal and none of its words left over: Maria Robertson is not Robert Son.
 */
export function scoreNames(query: { tokens: string[]; skeletons: string[]; arabic: boolean; groups?: number[]; exact?: boolean }, listed: { tokens: string[]; skeletons: string[] }): number {
  const arabic = query.arabic;
  const groups = query.groups;
  const q = groups ? query : joinAdjacent(query, listed, arabic);
  const l = joinAdjacent(listed, q, arabic);
  const pairs: { sim: number; i: number; j: number }[] = [];
  for (let i = 0; i < q.tokens.length; i++) {
    for (let j = 0; j < l.tokens.length; j++) {
      const sim = tokenSimilarity(q.tokens[i]!, l.tokens[j]!, arabic, q.skeletons[i], l.skeletons[j]);
      if (sim > 0) pairs.push({ sim, i, j });
    }
  }
  pairs.sort((x, y) => y.sim - x.sim || x.i - y.i || x.j - y.j);
  const usedQ = new Map<number, number>();
  const usedL = new Set<number>();
  let total = 0;
  let whole = false;
  for (const { sim, i, j } of pairs) {
    if (usedQ.has(i) || usedL.has(j)) continue;
    usedQ.set(i, sim);
    usedL.add(j);
    total += sim;
    if (q.tokens[i]!.length > 1 && l.tokens[j]!.length > 1 && sim >= 0.85) whole = true;
  }
  if (!whole) return 0;
  if (groups?.some((g, i) => g >= 0 && (query.exact ? usedQ.get(i) !== 1 : !usedQ.has(i)))) return 0;
  if (query.exact && usedQ.size < q.tokens.length) return 0;
  const shorter = Math.min(q.tokens.length, l.tokens.length);
  const longer = Math.max(q.tokens.length, l.tokens.length);
  const score = total / shorter - (longer - shorter) * (shorter === 1 ? EXTRA_TOKEN_SINGLE : EXTRA_TOKEN);
  return Math.max(0, Math.min(1, score));
}

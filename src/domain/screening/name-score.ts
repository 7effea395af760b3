import { firstClass, shareKey, soundClass } from './keys.js';
import { compareLegalForms, type LegalForm } from './legal-forms.js';
import { editDistance, jaroWinkler } from './similarity.js';
import { consonants } from './text.js';
import type { HitExplanation, PairedWords } from './types.js';

/**
 * How alike two names are (docs/screening.md#matching-and-the-score): their words paired in any order, each pair
 * weighed by what it says (a family name, a long word, more than an initial), less what one name has that the other
 * has not, and much less what the two contradict.
 */

/** What an initial (`I.`) is worth against a name it begins. */
const INITIAL = 0.9;
/** Below this a pair of tokens does not count as the same word. */
const TOKEN_FLOOR = 0.75;
/** A pair's similarity from which it counts as the same whole word (a name needs one such pair). */
const WHOLE_WORD = 0.85;
/** Two words of three letters or fewer with the same consonants or sounds (Un and On, Ahn and An): vowels written otherwise. */
const SHORT_VOWELS = 0.8;
/** Two longer words with the same consonants (Mohammed and Muhammad, Aleksandr and Alexander, Osama and Usama). */
const SAME_CONSONANTS = 0.9;
/** Two words whose consonants differ only by voice or spelling (Baek and Paek, Gaddafi and Qadhafi). */
const SAME_SOUNDS = 0.85;
/** How alike words of the same sounds must be (Ahmet and Mehmet, Zeng and Zhang are not one name). */
const SOUNDS_APART = 0.7;
/** How alike words with the same consonants must be before they count as one written with other vowels. */
const VOWELS_APART = 0.6;
/** A consonant match (Arabic script, where vowels are not written) is worth a little less than the same letters. */
const CONSONANT_MATCH = 0.95;

/** Each word one name has and the other has not, when two whole words or more pair: a patronymic, a second given name. */
export const EXTRA_WORD = 0.04;
/** Each extra word when only one whole word pairs (`Ivan` is not `Ivan Trading`, `Sidorov` not `Ivan Sidorov`). */
export const EXTRA_WORD_SINGLE = 0.15;
/** A family name (a list's, or the customer's last name) that the other name does not have. */
export const MISSING_FAMILY_NAME = 0.15;
/** Each word of one name facing a word of the other that does not pair: the names say different things there. */
export const CONTRADICTING_WORD = 0.3;
/** Both names give legal forms, of different kinds (Deutsche Bank AG, Deutsche Bank GmbH). */
export const LEGAL_FORM_DIFFERS = 0.15;

/** A family name weighs this much more than a given name. */
const FAMILY_WEIGHT = 1.5;

/** One side of a comparison: the name's tokens, their consonants, which are family names, the legal forms found. */
export interface NameSide {
  tokens: string[];
  skeletons: string[];
  /** keys.ts soundClass of each token. */
  sounds: string[];
  family?: boolean[];
  forms?: readonly LegalForm[];
}

export interface QueryName extends NameSide {
  arabic: boolean;
  groups?: number[];
  exact?: boolean;
}

/**
 * How alike two tokens are, 0 to 1: equal; an initial and a word it begins; otherwise, for words that share a key
 * (keys.ts: the index finds no other pair, so the score counts no other), the mean of Jaro-Winkler and one less the
 * edit distance per letter (Jaro-Winkler alone forgives long words that share a prefix), raised when their consonants
 * are the same (a vowel written another way), and in Arabic script by their consonants alone.
 */
export function tokenSimilarity(a: string, b: string, arabic = false, skeletonA = consonants(a), skeletonB = consonants(b), soundA = soundClass(a), soundB = soundClass(b)): number {
  if (a === b) return a.length === 1 ? INITIAL : 1;
  if (a.length === 1 || b.length === 1) return (a.length === 1 ? b.startsWith(a) : a.startsWith(b)) ? INITIAL : 0;
  if (!shareKey(a, b, skeletonA, skeletonB, soundA, soundB)) return 0;
  const jw = jaroWinkler(a, b);
  let sim = jw === 0 ? 0 : (jw + 1 - editDistance(a, b) / Math.max(a.length, b.length)) / 2;
  // The same consonants with vowels written otherwise, not words that merely share them (Kudo and Okada).
  const short = a.length <= 3 && b.length <= 3;
  if (short && ((skeletonA.length > 0 && skeletonA === skeletonB) || (soundA.length > 0 && soundA === soundB))) sim = Math.max(sim, SHORT_VOWELS);
  else if (skeletonA.length >= 2 && skeletonA === skeletonB && sim >= VOWELS_APART) sim = Math.max(sim, SAME_CONSONANTS);
  else if (soundA.length > 0 && soundA === soundB && sim >= SOUNDS_APART && sameFirstSound(a, b)) sim = Math.max(sim, SAME_SOUNDS);
  if (arabic && skeletonA.length > 0 && skeletonB.length > 0) sim = Math.max(sim, CONSONANT_MATCH * jaroWinkler(skeletonA, skeletonB));
  return sim >= TOKEN_FLOOR ? sim : 0;
}

/** Whether two words start with one letter or two of one sound class (Baek and Paek; not Khalid and Walid). */
function sameFirstSound(a: string, b: string): boolean {
  return a[0] === b[0] || (firstClass(a) !== undefined && firstClass(a) === firstClass(b));
}

/**
 * A pair's similarity as it counts in the name's score: below WHOLE_WORD, twice as far below it. A pair of words that
 * are only somewhat alike (Anders and Sander 0.78, Sokolovsky and Sokolov 0.82) says little that they are one name,
 * and beside an exact word must not carry a two-word name over the threshold.
 */
function counted(sim: number): number {
  return sim >= WHOLE_WORD ? sim : sim - (WHOLE_WORD - sim);
}

/** How much a word says: an initial little, a long word more, a family name more again. */
function weightOf(token: string, family: boolean): number {
  const base = token.length === 1 ? 0.4 : 0.5 + Math.min(token.length, 10) / 10;
  return family ? base * FAMILY_WEIGHT : base;
}

/**
 * Adjacent tokens of `a` written as one in `b` (Abdul Rahman and Abdulrahman; عبد الله and Abdallah by consonants;
 * 习近平's jin ping and Jinping) are joined, so that both count as one word.
 */
function joinAdjacent(a: NameSide, b: NameSide, arabic: boolean): NameSide {
  if (a.tokens.length < 2) return a;
  // Most names join nothing: find that out without building anything (this runs twice for every pair of names scored).
  if (!arabic) {
    let any = false;
    for (let i = 0; i + 1 < a.tokens.length && !any; i++) {
      const first = a.tokens[i]!;
      for (const word of b.tokens) {
        if (word.length === first.length + a.tokens[i + 1]!.length && word.startsWith(first) && word.endsWith(a.tokens[i + 1]!)) {
          any = true;
          break;
        }
      }
    }
    if (!any) return a;
  }
  const words = new Set(b.tokens);
  const skeletons = arabic ? new Set(b.skeletons.filter((s) => s.length >= 3)) : new Set<string>();
  const tokens: string[] = [];
  const skels: string[] = [];
  const sounds: string[] = [];
  const family: boolean[] = [];
  for (let i = 0; i < a.tokens.length; i++) {
    const next = a.tokens[i + 1];
    if (next !== undefined) {
      const joined = a.tokens[i]! + next;
      // Initials join only into a word the other name writes (S idorov), not by their consonants.
      if (words.has(joined) || (arabic && a.tokens[i]!.length > 1 && next.length > 1 && skeletons.has(consonants(joined)))) {
        tokens.push(joined);
        skels.push(consonants(joined));
        sounds.push(soundClass(joined));
        family.push(!!(a.family?.[i] || a.family?.[i + 1]));
        i++;
        continue;
      }
    }
    tokens.push(a.tokens[i]!);
    skels.push(a.skeletons[i]!);
    sounds.push(a.sounds[i]!);
    family.push(!!a.family?.[i]);
  }
  return { tokens, skeletons: skels, sounds, family, ...(a.forms ? { forms: a.forms } : {}) };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * How alike two names are, 0 to 1, whatever their word order. Words are paired greedily, most similar first; the
 * name's score is the pairs' similarities averaged by their weights, less EXTRA_WORD for each word only one name has
 * (EXTRA_WORD_SINGLE when a single whole word pairs; MISSING_FAMILY_NAME when it is a family name), less
 * CONTRADICTING_WORD for each word of one facing an unpaired word of the other, less a legal form of another kind. At
 * least one pair must be two whole words at WHOLE_WORD or more, and the query's words cut from one word (`groups`,
 * spellings.ts) are all paired, or the spelling does not match. A spelling cut by the lists' own words (`exact`,
 * segment.ts) matches only with its cut words paired with words they equal and none of its words left over: Maria
 * Robertson is not Robert Son. `explain`, when given, receives which words paired and what each adjustment cost.
 */
export function scoreNames(query: QueryName, listed: NameSide, explain?: HitExplanation): number {
  const arabic = query.arabic;
  const groups = query.groups;
  const q = groups ? query : joinAdjacent(query, listed, arabic);
  const l = joinAdjacent(listed, q, arabic);
  const pairs: { sim: number; i: number; j: number }[] = [];
  for (let i = 0; i < q.tokens.length; i++) {
    for (let j = 0; j < l.tokens.length; j++) {
      const sim = tokenSimilarity(q.tokens[i]!, l.tokens[j]!, arabic, q.skeletons[i], l.skeletons[j], q.sounds[i], l.sounds[j]);
      if (sim > 0) pairs.push({ sim, i, j });
    }
  }
  pairs.sort((x, y) => y.sim - x.sim || x.i - y.i || x.j - y.j);
  const usedQ = new Map<number, number>();
  const usedL = new Set<number>();
  const kept: { sim: number; i: number; j: number; weight: number }[] = [];
  let whole = false;
  let wholePairs = 0;
  for (const pair of pairs) {
    const { sim, i, j } = pair;
    if (usedQ.has(i) || usedL.has(j)) continue;
    usedQ.set(i, sim);
    usedL.add(j);
    const qt = q.tokens[i]!;
    const lt = l.tokens[j]!;
    const family = !!(q.family?.[i] || l.family?.[j]);
    kept.push({ sim, i, j, weight: (weightOf(qt, family) + weightOf(lt, family)) / 2 });
    if (qt.length > 1 && lt.length > 1) {
      wholePairs++;
      if (sim >= WHOLE_WORD) whole = true;
    }
  }
  if (!whole) return 0;
  if (groups?.some((g, i) => g >= 0 && (query.exact ? usedQ.get(i) !== 1 : !usedQ.has(i)))) return 0;
  if (query.exact && usedQ.size < q.tokens.length) return 0;

  let weights = 0;
  let total = 0;
  for (const p of kept) {
    weights += p.weight;
    total += p.weight * counted(p.sim);
  }
  let score = total / weights;

  const onlyQ = q.tokens.map((_, i) => i).filter((i) => !usedQ.has(i));
  const onlyL = l.tokens.map((_, j) => j).filter((j) => !usedL.has(j));
  const adjustments: HitExplanation['adjustments'] = [];
  // Unpaired whole words facing unpaired whole words contradict (family names first); the rest, and initials, are
  // extra words one name has.
  const familyFirst = (side: NameSide, ks: number[]) => ks.filter((k) => side.tokens[k]!.length > 1).sort((x, y) => Number(!!side.family?.[y]) - Number(!!side.family?.[x]) || x - y);
  const wholeQ = familyFirst(q, onlyQ);
  const wholeL = familyFirst(l, onlyL);
  const contradicting = Math.min(wholeQ.length, wholeL.length);
  if (contradicting > 0) {
    const effect = -CONTRADICTING_WORD * contradicting;
    score += effect;
    if (explain) adjustments.push({ kind: 'contradicting_words', effect: round3(effect), detail: `${wholeQ.slice(0, contradicting).map((i) => q.tokens[i]).join(' ')} against ${wholeL.slice(0, contradicting).map((j) => l.tokens[j]).join(' ')}: words that do not pair` });
  }
  // A family name is missing only when none of its words pairs: one part of a two-part family name (Sanctioned Ruiz,
  // Dubois-Lefèvre) left over is an extra word.
  const pairedFamilyQ = kept.some((p) => q.family?.[p.i]);
  const pairedFamilyL = kept.some((p) => l.family?.[p.j]);
  const each = wholePairs <= 1 ? EXTRA_WORD_SINGLE : EXTRA_WORD;
  const extra = (word: string, family: boolean, customer: boolean) => ({ word, family, customer, cost: family ? Math.max(each, MISSING_FAMILY_NAME) : each });
  const extras = [
    ...[...wholeQ.slice(contradicting), ...onlyQ.filter((i) => q.tokens[i]!.length === 1)].map((k) => extra(q.tokens[k]!, !!q.family?.[k] && !pairedFamilyQ, true)),
    ...[...wholeL.slice(contradicting), ...onlyL.filter((j) => l.tokens[j]!.length === 1)].map((k) => extra(l.tokens[k]!, !!l.family?.[k] && !pairedFamilyL, false)),
  ];
  if (extras.length > 0) {
    score -= extras.reduce((sum, e) => sum + e.cost, 0);
    if (explain) {
      for (const customer of [true, false]) {
        const words = extras.filter((e) => e.customer === customer);
        if (words.length === 0) continue;
        const family = words.filter((e) => e.family).map((e) => e.word);
        adjustments.push({
          kind: 'extra_words',
          effect: round3(-words.reduce((sum, e) => sum + e.cost, 0)),
          detail: `${words.map((e) => e.word).join(' ')}: only the ${customer ? "customer's" : 'listed'} name has ${words.length === 1 ? 'it' : 'them'}${family.length > 0 ? ` (family name ${family.join(' ')})` : ''}`,
        });
      }
    }
  }
  if (compareLegalForms(query.forms ?? [], listed.forms ?? []) === 'different') {
    score -= LEGAL_FORM_DIFFERS;
    if (explain) adjustments.push({ kind: 'legal_form', effect: -LEGAL_FORM_DIFFERS, detail: `${formsText(query.forms)} against ${formsText(listed.forms)}: legal forms of different kinds` });
  }
  score = Math.max(0, Math.min(1, score));
  if (explain) {
    explain.pairs = kept
      .sort((x, y) => x.i - y.i)
      .map((p): PairedWords => ({ subject: q.tokens[p.i]!, listed: l.tokens[p.j]!, similarity: round3(Math.max(0, counted(p.sim))), weight: round3(p.weight / weights) }));
    explain.onlySubject = onlyQ.map((i) => q.tokens[i]!);
    explain.onlyListed = onlyL.map((j) => l.tokens[j]!);
    explain.adjustments.push(...adjustments);
  }
  return score;
}

const formsText = (forms: readonly LegalForm[] | undefined) => (forms && forms.length > 0 ? forms.map((f) => f.code).join(' ') : 'none');

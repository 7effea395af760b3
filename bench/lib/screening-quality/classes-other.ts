/** The classes about companies, dates and aliases, people on no list, and the distractors every list holds. */
import type { ListEntry } from '../../../src/domain/screening/types.js';
import { type ClassSet, company, companyEntry, iso, listedDate, person, personEntry, type Ymd } from './cases.js';
import { Builder } from './classes-names.js';
import { INDUSTRY_WORDS, LEGAL_FORMS, type LegalForm } from './companies.js';
import { anyPerson, commaName, type Person, plainName } from './people.js';
import type { Rng } from './random.js';
import { type SplitPools, wordsOf } from './splits.js';

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A company's own name: a made-up word (Nordvik) and up to two industry words. */
function companyCore(rng: Rng, pools: SplitPools): string {
  const stem = cap(rng.sample(pools.stemSyllables, 2).join(''));
  return [stem, ...rng.sample(INDUSTRY_WORDS, rng.int(3))].join(' ');
}

/** The name with its form: after it, or before it, quoted, for the forms written first (OAO "Uralkhim"). */
function withForm(rng: Rng, core: string, form: LegalForm, written: string): string {
  if (form.before && rng.chance(0.7)) return rng.chance(0.5) ? `${written} "${core}"` : `${written} ${core}`;
  return `${core} ${written}`;
}

// --------------------------------------------------------------------------------------------------------- legal_form

export function legalFormClass(rng: Rng, pools: SplitPools, n: number): ClassSet {
  const b = new Builder('legal_form');
  const seen = new Set<string>();
  const dotted = LEGAL_FORMS.filter((f) => f.short.some((s) => s.includes('.')));
  const kinds = ['spelled_out', 'spelled_out', 'dotted', 'moved', 'other_family', 'other_family'];
  const add = (kind: string, listed: string, subject: string, shouldMatch: boolean) => {
    const entryNumber = `legal_form-${b.set.entries.length + 1}`;
    b.set.entries.push(companyEntry(entryNumber, rng.chance(0.4) ? listed.toUpperCase() : listed));
    b.set.cases.push({ cls: 'legal_form', kind, subject: company(subject), entryNumber, shouldMatch, listed });
  };
  for (let k = 0; b.set.cases.length < n && k < n * 20; k++) {
    const kind = kinds[k % kinds.length]!;
    const core = companyCore(rng, pools);
    if (seen.has(core)) continue;
    seen.add(core);
    if (kind === 'spelled_out') {
      const form = rng.pick(LEGAL_FORMS);
      const short = withForm(rng, core, form, rng.pick(form.short));
      const long = withForm(rng, core, form, rng.pick(form.long));
      if (rng.chance(0.5)) add(kind, short, long, true);
      else add(kind, long, short, true);
    } else if (kind === 'dotted') {
      const form = rng.pick(dotted);
      const [a, c] = rng.sample(form.short, 2) as [string, string];
      add(kind, `${core} ${a}`, `${core} ${c}`, true);
    } else if (kind === 'moved') {
      const form = rng.pick(LEGAL_FORMS.filter((f) => f.before));
      const listed = `${rng.pick(form.short)} "${core}"`;
      const subject = rng.chance(0.5) ? `${core} ${rng.pick(form.short)}` : rng.chance(0.5) ? `${rng.pick(form.long)} ${core}` : `${core} ${rng.pick(form.long)}`;
      add(kind, listed, subject, true);
    } else {
      const form = rng.pick(LEGAL_FORMS);
      const other = rng.pick(LEGAL_FORMS.filter((f) => f.family !== form.family));
      const write = (f: LegalForm) => (rng.chance(0.75) ? rng.pick(f.short) : rng.pick(f.long));
      add(kind, withForm(rng, core, form, write(form)), withForm(rng, core, other, write(other)), false);
    }
  }
  return b.set;
}

// -------------------------------------------------------------------------------------------------------------- dates

const randomDate = (rng: Rng): Ymd => ({ year: rng.between(1940, 2000), month: rng.between(1, 12), day: rng.between(1, 28) });

export function datesClass(rng: Rng, pools: SplitPools, n: number): ClassSet {
  const b = new Builder('dates');
  const kinds = ['year_off:day', 'year_off:year', 'year_off:near-name', 'circa:year', 'circa:day', 'far:day', 'far:circa'];
  for (let k = 0; b.set.cases.length < n && k < n * 20; k++) {
    const kind = kinds[k % kinds.length]!;
    const p = anyPerson(rng, pools);
    const d = randomDate(rng);
    const listed = rng.chance(0.6) ? commaName(p) : plainName(p);
    const sign = rng.chance(0.5) ? 1 : -1;
    let name = plainName(p);
    if (kind === 'year_off:near-name') name = p.middle.length > 0 ? `${p.given} ${p.family}` : `${p.family} ${p.given}`;
    const at = (year: number, other = false): string => iso({ year, month: other ? ((d.month + 4) % 12) + 1 : d.month, day: other ? ((d.day + 9) % 28) + 1 : d.day });
    switch (kind) {
      case 'year_off:day':
      case 'year_off:near-name':
        b.add(kind, listed, { birthDates: [listedDate(d, 'day')] }, person(name, at(d.year + sign)), true);
        break;
      case 'year_off:year':
        b.add(kind, listed, { birthDates: [listedDate(d, 'year')] }, person(name, at(d.year + sign, true)), true);
        break;
      case 'circa:year':
        b.add(kind, listed, { birthDates: [listedDate(d, 'circa-year')] }, person(name, at(d.year + rng.between(-1, 1), true)), true);
        break;
      case 'circa:day':
        b.add(kind, listed, { birthDates: [listedDate(d, 'circa-day')] }, person(name, at(d.year + rng.between(-1, 1), true)), true);
        break;
      case 'far:day':
        b.add(kind, listed, { birthDates: [listedDate(d, 'day')] }, person(name, at(d.year + sign * rng.between(5, 15))), false);
        break;
      case 'far:circa':
        b.add(kind, listed, { birthDates: [listedDate(d, 'circa-year')] }, person(name, at(d.year + sign * rng.between(6, 15), true)), false);
        break;
    }
  }
  return b.set;
}

// ------------------------------------------------------------------------------------------------------------ aliases

/** Whether two people share the given and the family name in some spelling. */
const samePerson = (a: Person, b: Person) => [...a.keys[0]].some((k) => b.keys[0].has(k)) && [...a.keys[1]].some((k) => b.keys[1].has(k));

export function aliasesClass(rng: Rng, pools: SplitPools, n: number): ClassSet {
  const b = new Builder('aliases');
  const people: Person[][] = [];
  const trueShare = 0.6;
  // Every entry: its own name and one to three aliases (other names it is known by; a kunya for Arabic names).
  const entries = Math.ceil(n * trueShare);
  for (let i = 0; i < entries; i++) {
    const main = anyPerson(rng, pools);
    const aliases: Person[] = [];
    for (let a = 1 + rng.int(3); a > 0; a--) aliases.push(anyPerson(rng, pools));
    people.push([main, ...aliases]);
  }
  people.forEach((names, i) => {
    const [main, ...aliases] = names as [Person, ...Person[]];
    const kunya = main.origin === 'arabic' && rng.chance(0.4) ? `ABU ${rng.pick(pools.arabicGiven)[1]!.toUpperCase()} ${main.family.toUpperCase()}` : undefined;
    const listedAliases = [...aliases.map((a) => ({ name: rng.chance(0.6) ? commaName(a) : plainName(a), aliasType: 'a.k.a.' })), ...(kunya ? [{ name: kunya, aliasType: 'a.k.a.' }] : [])];
    const pickedAlias = kunya && rng.chance(0.5) ? kunya : undefined;
    const subject = pickedAlias ? pickedAlias.toLowerCase().replace(/\b\p{L}/gu, (c) => c.toUpperCase()) : plainName(rng.pick(aliases));
    const entryNumber = `aliases-${i + 1}`;
    b.set.entries.push(personEntry(entryNumber, rng.chance(0.6) ? commaName(main) : plainName(main), { aliases: listedAliases }));
    b.set.cases.push({ cls: 'aliases', kind: pickedAlias ? 'alias:kunya' : aliases.length > 1 ? 'alias:one-of-several' : 'alias:only', subject: person(subject), entryNumber, shouldMatch: true, listed: `${main.given} ${main.family} a.k.a. ${listedAliases.map((a) => a.name).join('; ')}` });
  });
  // Negatives: the name of another entry (its own or an alias), paired with an entry that does not have it; one
  // sharing a word with the entry's names when there is one.
  for (let k = 0; b.set.cases.length < n && k < n * 20; k++) {
    const i = rng.int(people.length);
    const mine = people[i]!;
    const words = new Set(mine.flatMap((p) => [...p.keys[0], ...p.keys[1]]));
    const others = people.flatMap((names, j) => (j === i ? [] : names)).filter((p) => !mine.some((m) => samePerson(m, p)));
    const sharing = others.filter((p) => [...p.keys[0], ...p.keys[1]].some((w) => words.has(w)));
    const other = sharing.length > 0 && rng.chance(0.8) ? rng.pick(sharing) : rng.pick(others);
    const entry = b.set.entries[i]!;
    b.set.cases.push({ cls: 'aliases', kind: sharing.includes(other) ? 'other_entry:shares-word' : 'other_entry', subject: person(plainName(other)), entryNumber: entry.entryNumber, shouldMatch: false, listed: entry.name });
  }
  return b.set;
}

// ---------------------------------------------------------------------------------------------- distractors, no_match

/** Entries of no case: people of every origin (some with aliases and birth dates) and companies. */
export function distractors(rng: Rng, pools: SplitPools, count: number, prefix: string, companyShare = 0.15): ListEntry[] {
  const out: ListEntry[] = [];
  for (let i = 0; i < count; i++) {
    const entryNumber = `${prefix}-${i + 1}`;
    if (rng.chance(companyShare)) {
      const form = rng.pick(LEGAL_FORMS);
      out.push(companyEntry(entryNumber, `${companyCore(rng, pools)} ${rng.pick(form.short)}`.toUpperCase()));
      continue;
    }
    const p = anyPerson(rng, pools);
    const aliases = rng.chance(0.3) ? [{ name: commaName(anyPerson(rng, pools)), aliasType: 'a.k.a.' }] : [];
    out.push(personEntry(entryNumber, rng.chance(0.6) ? commaName(p) : plainName(p), { aliases, birthDates: rng.chance(0.5) ? [listedDate(randomDate(rng), 'day')] : [] }));
  }
  return out;
}

/** People on no list: names of every origin (a quarter in their own script), none the given and family name of an entry. */
export function noMatchClass(rng: Rng, pools: SplitPools, n: number, listed: readonly ListEntry[]): ClassSet {
  const postings = new Map<string, Set<number>>();
  listed.forEach((e, i) => {
    for (const name of [e.name, ...e.aliases.map((a) => a.name)]) {
      for (const w of wordsOf(name)) {
        const set = postings.get(w) ?? new Set<number>();
        set.add(i);
        postings.set(w, set);
      }
    }
  });
  const entriesWith = (keys: Set<string>) => new Set([...keys].flatMap((k) => [...(postings.get(k) ?? [])]));
  const cases: ClassSet['cases'] = [];
  for (let k = 0; cases.length < n && k < n * 20; k++) {
    const p = anyPerson(rng, pools);
    // Not a listed person's own name: no entry has the family name and the given or a middle name.
    const withOther = entriesWith(new Set([...p.keys[0], ...p.middle.map((m) => wordsOf(m).join(''))]));
    if ([...entriesWith(p.keys[1])].some((e) => withOther.has(e))) continue;
    const name = p.native && rng.chance(0.25) ? p.native : plainName(p);
    cases.push({ cls: 'no_match', kind: p.native && name === p.native ? `${p.origin}:script` : p.origin, subject: person(name), shouldMatch: false });
  }
  return { cls: 'no_match', entries: [], cases };
}

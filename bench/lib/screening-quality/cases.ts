/** What the evaluation is made of: labelled cases per class, and the list entries they are screened against. */
import type { ListedBirthDate, ListedName, ListEntry, ScreeningSubject } from '../../../src/domain/screening/types.js';

export const CLASSES = ['typo', 'transliteration', 'cjk', 'legal_form', 'variants', 'near_names', 'dates', 'aliases', 'no_match'] as const;
export type QualityClass = (typeof CLASSES)[number];

export interface LabelledCase {
  cls: QualityClass;
  /** What the case is within its class (`sub@start`, `ru:german`, `other_family`), for the breakdown. */
  kind: string;
  subject: ScreeningSubject;
  /** The listed entry the subject is paired with (none for a person on no list). */
  entryNumber?: string;
  /** Whether screening the subject should hit that entry. */
  shouldMatch: boolean;
  /** The paired entry's name as listed, for the examples of misses. */
  listed?: string;
}

export interface ClassSet {
  cls: QualityClass;
  entries: ListEntry[];
  cases: LabelledCase[];
}

export function personEntry(entryNumber: string, name: string, options: { aliases?: ListedName[]; birthDates?: ListedBirthDate[] } = {}): ListEntry {
  return { list: 'QUALITY', entryNumber, type: 'individual', name, aliases: options.aliases ?? [], programs: ['BENCH'], birthDates: options.birthDates ?? [], countries: [], walletAddresses: [] };
}

export function companyEntry(entryNumber: string, name: string, aliases: ListedName[] = []): ListEntry {
  return { list: 'QUALITY', entryNumber, type: 'entity', name, aliases, programs: ['BENCH'], birthDates: [], countries: [], walletAddresses: [] };
}

export const person = (name: string, birthDate?: string): ScreeningSubject => ({ kind: 'person', names: [name], ...(birthDate ? { birthDate } : {}) });
export const company = (name: string): ScreeningSubject => ({ kind: 'entity', names: [name] });

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

export interface Ymd {
  year: number;
  month: number;
  day: number;
}
export const iso = (d: Ymd) => `${d.year}-${pad(d.month)}-${pad(d.day)}`;

/** A listed date: the day, the year alone, or circa (the year either side), as lists publish them. */
export function listedDate(d: Ymd, form: 'day' | 'year' | 'circa-year' | 'circa-day'): ListedBirthDate {
  const text = `${pad(d.day)} ${MONTHS[d.month - 1]} ${d.year}`;
  switch (form) {
    case 'day':
      return { text, day: iso(d), month: iso(d).slice(0, 7), fromYear: d.year, toYear: d.year };
    case 'year':
      return { text: String(d.year), fromYear: d.year, toYear: d.year };
    case 'circa-year':
      return { text: `circa ${d.year}`, fromYear: d.year - 1, toYear: d.year + 1, circa: true };
    case 'circa-day':
      return { text: `circa ${text}`, day: iso(d), month: iso(d).slice(0, 7), fromYear: d.year - 1, toYear: d.year + 1, circa: true };
  }
}

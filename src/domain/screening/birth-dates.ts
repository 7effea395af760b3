import type { ListedBirthDate } from './types.js';

/**
 * How a customer's birth date (YYYY-MM-DD) stands to an entry's listed ones (docs/screening.md#matching-and-the-score):
 * - `agrees`: a listed one allows it (a day the day, a month the month, a year or span the year; a circa date, or
 *   circa year, any day of its years);
 * - `near`: one could be it written with a slip: a day a year off (or in the same year), the day and month swapped,
 *   a month or year one year off the span;
 * - `conflicts`: none is near: another person, as OFAC's own advice reads a different date of birth.
 */
export type BirthDateRelation = 'agrees' | 'near' | 'conflicts';

const DAY = 86_400_000;

function agrees(listed: ListedBirthDate, birthDate: string): boolean {
  const year = Number(birthDate.slice(0, 4));
  if (listed.circa) return year >= listed.fromYear && year <= listed.toYear;
  if (listed.day) return listed.day === birthDate;
  if (listed.month) return birthDate.startsWith(listed.month);
  return year >= listed.fromYear && year <= listed.toYear;
}

function near(listed: ListedBirthDate, birthDate: string): boolean {
  const year = Number(birthDate.slice(0, 4));
  if (listed.day && !listed.circa) {
    const [y, m, d] = listed.day.split('-');
    if (`${y}-${d}-${m}` === birthDate) return true;
    if (listed.day.slice(0, 4) === birthDate.slice(0, 4)) return true;
    const apart = Math.abs(Date.parse(`${listed.day}T00:00:00Z`) - Date.parse(`${birthDate}T00:00:00Z`));
    return apart <= 366 * DAY || (listed.day.slice(5) === birthDate.slice(5) && Math.abs(Number(y) - year) === 1);
  }
  return year >= listed.fromYear - 1 && year <= listed.toYear + 1;
}

export function birthDateRelation(listed: readonly ListedBirthDate[], birthDate: string): BirthDateRelation {
  if (listed.some((d) => agrees(d, birthDate))) return 'agrees';
  if (listed.some((d) => near(d, birthDate))) return 'near';
  return 'conflicts';
}

/**
 * A listed date as a list gives it: a year, a month of it (`MM`), or a day (`DD` of that month), written as `text`.
 * Every reader builds its dates here, so that a day always carries its month and its year.
 */
export function listedDate(text: string, year: number | string, month?: string, day?: string): ListedBirthDate {
  const y = Number(year);
  const ym = month ? `${year}-${month.padStart(2, '0')}` : undefined;
  const ymd = ym && day ? `${ym}-${day.padStart(2, '0')}` : undefined;
  return { text, ...(ymd ? { day: ymd } : {}), ...(ym ? { month: ym } : {}), fromYear: y, toYear: y };
}

/** A date given as approximate (OFAC's circa, the EU's circa, the UN's APPROXIMATELY): a year either side, written as `text`. */
export function approximate(date: ListedBirthDate, text: string): ListedBirthDate {
  return { ...date, text, fromYear: date.fromYear - 1, toYear: date.toYear + 1, circa: true };
}

/** A span of years, given in either order; written `1961 to 1962` unless the list wrote it otherwise. */
export function yearSpan(a: number, b: number, text?: string): ListedBirthDate {
  const [fromYear, toYear] = [Math.min(a, b), Math.max(a, b)];
  return { text: text ?? `${fromYear} to ${toYear}`, fromYear, toYear };
}

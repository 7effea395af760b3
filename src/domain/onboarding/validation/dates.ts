/**
 * Calendar dates written YYYY-MM-DD. Dates are compared on the UTC calendar: the server has no idea of
 * the person's time zone, and a one-day difference at the age boundary is accepted.
 */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** A real date (2023-02-30 and 2023-13-01 are not), years 0001-9999; null otherwise. */
export function parseCalendarDate(text: string): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (year < 1 || daysInMonth === undefined || day < 1 || day > daysInMonth) return null;
  return { year, month, day };
}

export function utcCalendarDate(now: Date): CalendarDate {
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1, day: now.getUTCDate() };
}

/** Negative, zero or positive as a is before, equal to or after b. */
export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/**
 * Completed years of age on `now`'s UTC date. Someone born on 29 February turns a year older on
 * 1 March in common years. NaN when birthDate is not a real YYYY-MM-DD date, so comparisons are false.
 */
export function ageOn(birthDate: string, now: Date): number {
  const birth = parseCalendarDate(birthDate);
  if (birth === null || Number.isNaN(now.getTime())) return Number.NaN;
  const today = utcCalendarDate(now);
  const hadBirthday = today.month > birth.month || (today.month === birth.month && today.day >= birth.day);
  return today.year - birth.year - (hadBirthday ? 0 : 1);
}

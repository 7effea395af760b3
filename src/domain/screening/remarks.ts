import { approximate, listedDate, yearSpan } from './birth-dates.js';
import { countryCode } from './countries.js';
import type { ListedBirthDate, ListedWalletAddress } from './types.js';

const MONTHS: Record<string, string> = { jan: '01', feb: '02', mar: '03', apr: '04', may: '05', jun: '06', jul: '07', aug: '08', sep: '09', oct: '10', nov: '11', dec: '12' };

/**
 * One `DOB …` of OFAC's remarks: `14 Jul 1961`, `Jul 1961`, `1961`, `circa 1961`, `circa 07 Jul 1966`, `circa Jul 1966`
 * (circa: a year either side, the day and month kept as given), `1961 to 1962`, `14 Jul 1961 to 1962`. Undefined when it
 * is none of these.
 */
export function parseBirthDate(text: string): ListedBirthDate | undefined {
  const t = text.trim().replace(/\s+/g, ' ');
  const circa = /^circa (.+)$/i.exec(t);
  if (circa) {
    const date = parseBirthDate(circa[1]!);
    // A span (`circa 1961 to 1962`) is not a form OFAC writes: refused like any other unknown form.
    if (!date || date.fromYear !== date.toYear) return undefined;
    return approximate(date, t);
  }
  const range = /^(?:(?:\d{1,2} )?[A-Za-z]{3} )?(\d{4}) to (?:(?:\d{1,2} )?[A-Za-z]{3} )?(\d{4})$/.exec(t);
  if (range) return yearSpan(Number(range[1]), Number(range[2]), t);
  const full = /^(\d{1,2}) ([A-Za-z]{3}) (\d{4})$/.exec(t);
  if (full) {
    const month = MONTHS[full[2]!.toLowerCase()];
    if (!month) return undefined;
    return listedDate(t, full[3]!, month, full[1]!);
  }
  const monthYear = /^([A-Za-z]{3}) (\d{4})$/.exec(t);
  if (monthYear) {
    const month = MONTHS[monthYear[1]!.toLowerCase()];
    if (!month) return undefined;
    return listedDate(t, monthYear[2]!, month);
  }
  const year = /^(\d{4})$/.exec(t);
  if (year) return listedDate(t, year[1]!);
  return undefined;
}

export interface RemarkFacts {
  birthDates: ListedBirthDate[];
  countries: string[];
  walletAddresses: ListedWalletAddress[];
  /** The remarks the matcher does not read (place of birth, gender, passports and other identifiers…), as written: for operators. */
  other: string[];
}

/**
 * What the matcher uses from an SDN entry's Remarks: `DOB …;` (and `alt. DOB …;`), `nationality …;`,
 * `citizenship …;`, `citizen …;` (each also after `alt.`) and `Digital Currency Address - ETH 0x…;` (any currency
 * code, any number of them). Remarks are `;`-separated; any other part (`POB …`, `Gender …`, `Passport …`) is kept
 * in `other`, as written, for an operator to read.
 */
export function parseRemarks(remarks: string): RemarkFacts {
  const facts: RemarkFacts = { birthDates: [], countries: [], walletAddresses: [], other: [] };
  for (const raw of remarks.split(';')) {
    const part = raw.trim().replace(/\.$/, '');
    const dob = /^(?:alt\. )?DOB (.+)$/i.exec(part);
    if (dob) {
      const date = parseBirthDate(dob[1]!);
      if (date) facts.birthDates.push(date);
      continue;
    }
    const country = /^(?:alt\. )?(?:nationality|citizenship|citizen) (.+)$/i.exec(part);
    if (country) {
      const code = countryCode(country[1]!);
      if (code && !facts.countries.includes(code)) facts.countries.push(code);
      continue;
    }
    const wallet = /^(?:alt\. )?Digital Currency Address - ([A-Za-z0-9]+)\s+(\S+)$/i.exec(part);
    if (wallet) facts.walletAddresses.push({ currency: wallet[1]!.toUpperCase(), address: wallet[2]! });
    else if (part) facts.other.push(part);
  }
  return facts;
}

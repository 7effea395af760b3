import { approximate, listedDate, yearSpan } from './birth-dates.js';
import { countryCode } from './countries.js';
import { ListFormatError, type ListFile } from './formats.js';
import type { EntryType, ListedBirthDate, ListedName, ListEntry } from './types.js';
import { childText, children, elementLines, parseXml, text, type XmlNode } from './xml.js';

const YEAR = /^\d{4}$/;

/**
 * One INDIVIDUAL_DATE_OF_BIRTH: TYPE_OF_DATE `EXACT` (a DATE, YYYY-MM-DD, or a YEAR), `APPROXIMATELY` (the same, a year
 * either side, circa) or `BETWEEN` (FROM_YEAR to TO_YEAR). Undefined when it gives no date (the UN often writes the
 * element empty); a value that is not a date is the file's error.
 */
function birthDate(el: XmlNode, where: string): ListedBirthDate | undefined {
  const type = childText(el, 'TYPE_OF_DATE').toUpperCase();
  const date = childText(el, 'DATE');
  const year = childText(el, 'YEAR');
  const from = childText(el, 'FROM_YEAR');
  const to = childText(el, 'TO_YEAR');
  const bad = (what: string, value: string) => new ListFormatError(`${where} has an INDIVIDUAL_DATE_OF_BIRTH whose ${what} ${JSON.stringify(value.slice(0, 40))} is not a date`);
  if (type === 'BETWEEN' || (!date && !year && (from || to))) {
    if (!from && !to) return undefined;
    const [a, b] = [from || to, to || from];
    if (!YEAR.test(a)) throw bad('FROM_YEAR', a);
    if (!YEAR.test(b)) throw bad('TO_YEAR', b);
    return yearSpan(Number(a), Number(b));
  }
  let listed: ListedBirthDate;
  if (date) {
    // The UN writes DATE as an xs:date; a time or zone after it is not part of the day.
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
    if (!m) throw bad('DATE', date);
    listed = listedDate(m[0], m[1]!, m[2], m[3]);
  } else if (year) {
    if (!YEAR.test(year)) throw bad('YEAR', year);
    listed = listedDate(year, year);
  } else {
    return undefined;
  }
  return type === 'APPROXIMATELY' ? approximate(listed, `approximately ${listed.text}`) : listed;
}

function parseParty(label: string, el: XmlNode, kind: 'INDIVIDUAL' | 'ENTITY', at: string, seen: Set<string>): ListEntry {
  const dataId = childText(el, 'DATAID');
  const reference = childText(el, 'REFERENCE_NUMBER');
  const id = reference || dataId;
  if (!id) throw new ListFormatError(`${at}: an ${kind} needs a REFERENCE_NUMBER or a DATAID`);
  if (seen.has(id)) throw new ListFormatError(`${at}: ${kind} ${id} is given twice`);
  seen.add(id);
  const name = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME']
    .map((n) => childText(el, n))
    .filter(Boolean)
    .join(' ');
  if (!name) throw new ListFormatError(`${at}: ${kind} ${id} has no name (FIRST_NAME)`);
  const aliases: ListedName[] = [];
  const add = (alias: string, aliasType: string) => {
    if (alias && alias !== name && !aliases.some((a) => a.name === alias)) aliases.push({ name: alias, aliasType });
  };
  add(childText(el, 'NAME_ORIGINAL_SCRIPT'), 'original script');
  for (const alias of children(el, `${kind}_ALIAS`)) add(childText(alias, 'ALIAS_NAME'), childText(alias, 'QUALITY') || 'a.k.a.');
  const countries: string[] = [];
  const places = [...children(el, 'NATIONALITY').flatMap((n) => children(n, 'VALUE')), ...children(el, `${kind}_ADDRESS`).flatMap((a) => children(a, 'COUNTRY'))];
  for (const place of places) {
    const code = countryCode(text(place));
    if (code && !countries.includes(code)) countries.push(code);
  }
  const birthDates: ListedBirthDate[] = [];
  for (const b of children(el, 'INDIVIDUAL_DATE_OF_BIRTH')) {
    const date = birthDate(b, `${at}: ${kind} ${id}`);
    if (date && !birthDates.some((d) => d.text === date.text)) birthDates.push(date);
  }
  const type: EntryType = kind === 'INDIVIDUAL' ? 'individual' : 'entity';
  const program = childText(el, 'UN_LIST_TYPE');
  return { list: label, entryNumber: id, type, name, aliases, programs: program ? [program] : [], birthDates, countries, walletAddresses: [] };
}

/**
 * The UN Security Council's consolidated list as it publishes it in XML (docs/screening.md#the-un-security-councils-consolidated-list-xml):
 * `<CONSOLIDATED_LIST>` with `<INDIVIDUALS><INDIVIDUAL>` and `<ENTITIES><ENTITY>`, each with DATAID, FIRST_NAME to
 * FOURTH_NAME, UN_LIST_TYPE, REFERENCE_NUMBER, NAME_ORIGINAL_SCRIPT, NATIONALITY/VALUE, the aliases (QUALITY,
 * ALIAS_NAME), the addresses' COUNTRY and the dates of birth. The entry number is the REFERENCE_NUMBER (the DATAID
 * when there is none); countries are written by name.
 */
export function parseUnSc(label: string, file: ListFile): ListEntry[] {
  const doc = parseXml(file, ['INDIVIDUAL', 'ENTITY', 'INDIVIDUAL_ALIAS', 'ENTITY_ALIAS', 'INDIVIDUAL_ADDRESS', 'ENTITY_ADDRESS', 'INDIVIDUAL_DATE_OF_BIRTH', 'NATIONALITY', 'VALUE', 'COUNTRY']);
  const root = doc['CONSOLIDATED_LIST'];
  if (root === undefined) throw new ListFormatError(`${file.path} line 1: the UN's list has the root element <CONSOLIDATED_LIST>`);
  const seen = new Set<string>();
  const entries: ListEntry[] = [];
  for (const [group, kind] of [['INDIVIDUALS', 'INDIVIDUAL'], ['ENTITIES', 'ENTITY']] as const) {
    const lines = elementLines(file.text, kind);
    const parties = children(root, group).flatMap((g) => children(g, kind));
    parties.forEach((el, i) => entries.push(parseParty(label, el, kind, `${file.path} line ${lines[i] ?? '?'}`, seen)));
  }
  return entries;
}

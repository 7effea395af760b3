import { approximate, listedDate, yearSpan } from './birth-dates.js';
import { countryFromAlpha2 } from './countries.js';
import { ListFormatError, type ListFile } from './formats.js';
import { parseRemarks } from './remarks.js';
import type { EntryType, ListedBirthDate, ListedName, ListEntry, ListedWalletAddress } from './types.js';
import { attr, children, elementLines, parseXml, text, type XmlNode } from './xml.js';

const ENTITY = 'sanctionEntity';

function entryType(code: string): EntryType {
  const c = code.toLowerCase();
  return c === 'person' ? 'individual' : c === 'enterprise' ? 'entity' : 'unknown';
}

/** A nameAlias's name as published: its wholeName, else its firstName, middleName and lastName in that order. */
function aliasName(alias: XmlNode): ListedName | undefined {
  const name = attr(alias, 'wholeName') || ['firstName', 'middleName', 'lastName'].map((a) => attr(alias, a)).filter(Boolean).join(' ');
  if (!name) return undefined;
  const lastName = attr(alias, 'lastName');
  return lastName ? { name, familyName: lastName } : { name };
}

const YEAR = /^\d{4}$/;

/**
 * One `<birthdate>`: `birthdate="1961-07-14"`, or its parts (`year`, `monthOfYear`, `dayOfMonth`), or a span
 * (`yearRangeFrom`, `yearRangeTo`); `circa="true"` makes it a year either side (a span stays as given). Undefined when it
 * gives no date (the EU lists a place of birth that way); a value that is not a date is the file's error.
 */
function birthDate(el: XmlNode, where: string): ListedBirthDate | undefined {
  const full = attr(el, 'birthdate');
  const circa = attr(el, 'circa').toLowerCase() === 'true';
  let year = attr(el, 'year');
  let month = attr(el, 'monthOfYear');
  let day = attr(el, 'dayOfMonth');
  const from = attr(el, 'yearRangeFrom');
  const to = attr(el, 'yearRangeTo');
  const bad = (what: string) => new ListFormatError(`${where} has a birthdate whose ${what} is not a date`);
  if (full) {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(full);
    if (!m) throw bad(`birthdate ${JSON.stringify(full.slice(0, 40))}`);
    [year, month, day] = [m[1]!, m[2]!, m[3]!];
  }
  let date: ListedBirthDate;
  if (year) {
    if (!YEAR.test(year)) throw bad(`year ${JSON.stringify(year.slice(0, 40))}`);
    if (month && !/^(0?[1-9]|1[0-2])$/.test(month)) throw bad(`monthOfYear ${JSON.stringify(month.slice(0, 40))}`);
    if (day && !/^(0?[1-9]|[12]\d|3[01])$/.test(day)) throw bad(`dayOfMonth ${JSON.stringify(day.slice(0, 40))}`);
    const given = listedDate('', year, month, day);
    date = { ...given, text: full || given.day || given.month || year };
  } else if (from || to) {
    const [a, b] = [from || to, to || from];
    if (!YEAR.test(a) || !YEAR.test(b)) throw bad(`yearRangeFrom/yearRangeTo ${JSON.stringify(`${from}/${to}`.slice(0, 40))}`);
    const span = yearSpan(Number(a), Number(b));
    // A circa span is the span: the EU gives its bounds.
    return circa ? { ...span, text: `circa ${span.text}`, circa: true } : span;
  } else {
    return undefined;
  }
  return circa ? approximate(date, `circa ${date.text}`) : date;
}

/**
 * The EU's consolidated financial sanctions list as the Financial Sanctions Files publish it
 * (docs/screening.md#the-eus-consolidated-list-fsf-xml): an `<export>` root, one `<sanctionEntity logicalId
 * euReferenceNumber>` a party, with `<subjectType code="person|enterprise">`, `<nameAlias wholeName firstName
 * middleName lastName>` (the first is the entry's own name, the others aliases), `<regulation programme>`,
 * `<birthdate>`, `<citizenship countryIso2Code>`, `<address countryIso2Code>` and `<remark>` (wallet addresses written
 * as OFAC writes them). The entry number is the logicalId.
 */
export function parseEuFsf(label: string, file: ListFile): ListEntry[] {
  const doc = parseXml(file, [ENTITY, 'nameAlias', 'regulation', 'birthdate', 'citizenship', 'address', 'remark']);
  const root = doc['export'];
  if (root === undefined) throw new ListFormatError(`${file.path} line 1: the EU's list has the root element <export>`);
  const lines = elementLines(file.text, ENTITY);
  const seen = new Set<string>();
  return children(root, ENTITY).map((el, i) => {
    const at = `${file.path} line ${lines[i] ?? '?'}`;
    const id = attr(el, 'logicalId');
    if (!/^\d{1,12}$/.test(id)) throw new ListFormatError(`${at}: a sanctionEntity needs a logicalId (a number; got ${JSON.stringify(id.slice(0, 40))})`);
    if (seen.has(id)) throw new ListFormatError(`${at}: sanctionEntity ${id} is given twice`);
    seen.add(id);
    const where = `${at}: sanctionEntity ${id}`;
    const names = children(el, 'nameAlias').flatMap((a) => aliasName(a) ?? []);
    const own = names[0];
    if (!own) throw new ListFormatError(`${where} has no nameAlias with a name (wholeName, or firstName and lastName)`);
    const aliases: ListedName[] = [];
    for (const alias of names.slice(1)) {
      if (alias.name !== own.name && !aliases.some((a) => a.name === alias.name)) aliases.push({ ...alias, aliasType: 'a.k.a.' });
    }
    const countries: string[] = [];
    for (const place of [...children(el, 'citizenship'), ...children(el, 'address')]) {
      const code = countryFromAlpha2(attr(place, 'countryIso2Code'));
      if (code && !countries.includes(code)) countries.push(code);
    }
    const walletAddresses: ListedWalletAddress[] = [];
    for (const remark of [...children(el, 'remark'), ...children(el, 'address').flatMap((a) => children(a, 'remark'))]) {
      for (const w of parseRemarks(text(remark)).walletAddresses) if (!walletAddresses.some((x) => x.address === w.address)) walletAddresses.push(w);
    }
    const birthDates: ListedBirthDate[] = [];
    for (const b of children(el, 'birthdate')) {
      const date = birthDate(b, where);
      if (date && !birthDates.some((d) => d.text === date.text)) birthDates.push(date);
    }
    return {
      list: label,
      entryNumber: id,
      type: entryType(attr(children(el, 'subjectType')[0], 'code')),
      name: own.name,
      ...(own.familyName ? { familyName: own.familyName } : {}),
      aliases,
      programs: [...new Set(children(el, 'regulation').map((r) => attr(r, 'programme')).filter(Boolean))],
      birthDates,
      countries,
      walletAddresses,
    };
  });
}

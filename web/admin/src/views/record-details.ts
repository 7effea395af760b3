import { h, type Children } from '../dom';
import { birthDate, dateTime, humanize } from '../format';

// The record as the integrator's API returns it, shown as definition lists. Generic on purpose: users, associated
// persons and companies differ, and a field the server adds later still shows up.

/** Shown elsewhere on the case page. */
const SHOWN_ELSEWHERE = new Set(['verificationDocuments', 'entityDocuments', 'verificationStatus', 'missingDocuments', 'missingCompanyData']);

/** Who the record is first, then how to reach them; anything else keeps the server's order. */
const FIRST = [
  'firstName',
  'middleName',
  'lastName',
  'businessLegalName',
  'businessTradeName',
  'businessType',
  'companyNumber',
  'birthDate',
  'nationality',
  'countryOfBirth',
  'residentialAddress',
  'registeredAddress',
  'physicalAddress',
  'socialSecurityNumber',
  'email',
  'phone',
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isAddress = (v: Record<string, Json>) => 'streetLine1' in v || ('city' in v && 'country' in v);

function ordered(entries: [string, Json][]): [string, Json][] {
  const rank = (k: string) => (FIRST.includes(k) ? FIRST.indexOf(k) : FIRST.length);
  return entries.map((e, i) => [e, i] as const).sort((a, b) => rank(a[0][0]) - rank(b[0][0]) || a[1] - b[1]).map(([e]) => e);
}

function address(v: Record<string, Json>): HTMLElement {
  const lines = [v.streetLine1, v.streetLine2, [[v.city, v.state].filter(Boolean).join(', '), v.postalCode].filter(Boolean).join(' '), v.country]
    .filter((l) => typeof l === 'string' && l !== '')
    .map(String);
  return h('address', {}, lines.map((l, i) => [i > 0 ? h('br') : null, l]));
}

function scalar(key: string, v: Json): Children {
  if (v === null || v === '') return h('span', { class: 'muted' }, '—');
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  // Every date of birth in one form (format.ts#birthDate): the hit panel shows the list's beside the customer's.
  if (typeof v === 'string' && /^(birthDate|dateOfBirth)$/.test(key)) return birthDate(v);
  if (typeof v === 'string' && /At$/.test(key) && !Number.isNaN(Date.parse(v))) return h('time', { datetime: v }, dateTime(v));
  if (typeof v === 'string' && (/Id$/.test(key) || /^0x[0-9a-f]+$/i.test(v))) return h('code', {}, v);
  return String(v);
}

const isGroup = (v: Json): v is Record<string, Json> => isObject(v) && !isAddress(v);
const isGroupList = (v: Json): v is Record<string, Json>[] => Array.isArray(v) && v.length > 0 && v.every(isObject);

function value(key: string, v: Json): Children {
  if (Array.isArray(v)) return v.length === 0 ? h('span', { class: 'muted' }, 'none') : v.map((x) => (x === null ? '' : humanizeValue(String(x)))).join(', ');
  if (isObject(v)) return address(v);
  return typeof v === 'string' ? humanizeValue(scalar(key, v)) : scalar(key, v);
}

/** Codes like "business_revenue" read better as words; free text and identifiers are left alone. */
function humanizeValue<T>(v: T): T | string {
  return typeof v === 'string' && /^[a-z]+(_[a-z0-9]+)+$/.test(v) ? humanize(v) : v;
}

/**
 * A titled definition list of an object's plain fields, followed by one section per nested object or list of
 * objects (a company's activity info, an entity's persons): nesting lists inside lists would not fit the column.
 */
function sections(title: string, object: Record<string, Json>): HTMLElement[] {
  const entries = ordered(Object.entries(object).filter(([k]) => !SHOWN_ELSEWHERE.has(k)));
  const plain = entries.filter(([, v]) => !isGroup(v) && !isGroupList(v));
  const nested = entries.flatMap(([k, v]): HTMLElement[] => {
    if (isGroup(v)) return sections(`${title} › ${humanize(k)}`, v);
    if (isGroupList(v)) return v.flatMap((item, i) => sections(`${title} › ${humanize(k)} ${i + 1}`, item));
    return [];
  });
  const own = plain.length
    ? [h('section', { class: 'record-group', 'aria-label': title }, h('h3', {}, title), h('dl', { class: 'details' }, plain.map(([k, v]) => [h('dt', {}, humanize(k)), h('dd', {}, value(k, v))])))]
    : [];
  return [...own, ...nested];
}

/** One section per nested object of the record (user info, beneficiary details...), then the record's own fields. */
export function recordDetails(record: Record<string, unknown>): HTMLElement {
  const entries = Object.entries(record as Record<string, Json>).filter(([k]) => !SHOWN_ELSEWHERE.has(k));
  const groups = entries.filter(([, v]) => isGroup(v) || isGroupList(v));
  const own = Object.fromEntries(entries.filter(([, v]) => !isGroup(v) && !isGroupList(v)));
  return h(
    'div',
    { class: 'record' },
    groups.flatMap(([k, v]) => (isGroupList(v) ? v.flatMap((item, i) => sections(`${humanize(k)} ${i + 1}`, item)) : sections(humanize(k), v as Record<string, Json>))),
    Object.keys(own).length ? sections('Record', own) : null,
  );
}

/** The name a case goes by. */
export function subjectName(record: Record<string, unknown>): string {
  const person = (record.userInfo ?? {}) as Record<string, unknown>;
  const company = (record.entityInfo ?? {}) as Record<string, unknown>;
  const name = [person.firstName, person.middleName, person.lastName].filter((p) => typeof p === 'string' && p).join(' ');
  return name || (typeof company.businessLegalName === 'string' ? company.businessLegalName : '') || '(no name)';
}

import { formatMinor, isCurrencyCode, toMinor } from './amounts.js';
import { at, attr, text, textAt, type XmlNode } from './camt-xml.js';
import { StatementFormatError } from './statement.js';

/**
 * The values camt.053 writes the same way in every version and every place (balances, entries, transactions): an
 * amount with its `Ccy`, a credit/debit indicator, a date-or-date-time choice. Each names its place (`where`) when
 * it refuses, so an error points into the file.
 */

export interface Money {
  minor: bigint;
  amount: string;
  currency: string;
}

/** An `Amt Ccy="…"` element; a missing `Ccy` (the schema requires it) falls back to the account's currency. */
export function readAmount(amt: XmlNode, where: string, fallbackCurrency?: string): Money {
  const currency = attr(amt, 'Ccy') || fallbackCurrency || '';
  if (!isCurrencyCode(currency)) throw new StatementFormatError('bad_currency', `${where}: currency ${JSON.stringify(currency)} is not an ISO 4217 code`);
  const written = text(amt);
  const minor = toMinor(written, currency);
  if (minor === undefined) throw new StatementFormatError('bad_amount', `${where}: amount ${JSON.stringify(written.slice(0, 40))} is not a decimal amount in ${currency}`);
  return { minor, amount: formatMinor(minor, currency), currency };
}

/** The amount element under `node`, required. */
export function requiredAmount(node: XmlNode, where: string, fallbackCurrency?: string): Money {
  const amt = at(node, 'Amt');
  if (!amt) throw new StatementFormatError('missing_element', `${where}: no Amt`);
  return readAmount(amt, where, fallbackCurrency);
}

/** `CdtDbtInd`: CRDT or DBIT, required where `required` (entries, balances), else undefined when absent. */
export function readIndicator(node: XmlNode, where: string, required: boolean): 'credit' | 'debit' | undefined {
  const v = textAt(node, 'CdtDbtInd');
  if (v === 'CRDT') return 'credit';
  if (v === 'DBIT') return 'debit';
  if (v === '' && !required) return undefined;
  throw new StatementFormatError('bad_indicator', `${where}: CdtDbtInd ${JSON.stringify(v)} is neither CRDT nor DBIT`);
}

/**
 * A DateAndDateTimeChoice (`<Dt>` or `<DtTm>`) or a bare date-time, as its calendar day (YYYY-MM-DD) as written:
 * a bank's booking day is the day in its own time zone, which converting to UTC would move.
 */
export function readDate(node: XmlNode | undefined, where: string): string | undefined {
  if (!node) return undefined;
  const written = textAt(node, 'Dt') || textAt(node, 'DtTm') || text(node);
  if (written === '') return undefined;
  const day = written.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) {
    throw new StatementFormatError('bad_date', `${where}: ${JSON.stringify(written.slice(0, 40))} is not a date`);
  }
  return day;
}

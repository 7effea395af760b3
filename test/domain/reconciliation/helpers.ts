import { readFileSync } from 'node:fs';
import { ROOT_URL } from '../../harness/root.js';
import type { StatementLine } from '../../../src/domain/reconciliation/statement.js';

/** A fixture under test/fixtures/camt053/. */
export const fixture = (name: string): string => readFileSync(new URL(`test/fixtures/camt053/${name}`, ROOT_URL), 'utf8');

export type Version = '001.02' | '001.08';

/** A whole camt.053 message of that version around `entries` (Ntry elements written by `entry`). */
export function statementXml(version: Version, entries: string, options: { currency?: string; prefix?: string } = {}): string {
  const p = options.prefix ? `${options.prefix}:` : '';
  const xmlns = options.prefix ? `xmlns:${options.prefix}` : 'xmlns';
  const body = `<BkToCstmrStmt><GrpHdr><MsgId>MSG-1</MsgId><CreDtTm>2024-05-02T06:00:00</CreDtTm></GrpHdr>
<Stmt><Id>STMT-1</Id><CreDtTm>2024-05-02T06:00:00</CreDtTm>
<Acct><Id><IBAN>CH93 0076 2011 6238 5295 7</IBAN></Id><Ccy>${options.currency ?? 'EUR'}</Ccy></Acct>
${entries}</Stmt></BkToCstmrStmt>`;
  // The prefixed form puts the prefix on every element, as generators that prefix do.
  const prefixed = p ? body.replace(/<(\/?)([A-Za-z])/g, `<$1${p}$2`) : body;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${p}Document ${xmlns}="urn:iso:std:iso:20022:tech:xsd:camt.053.${version}">${prefixed}</${p}Document>`;
}

export interface EntryFields {
  amount: string;
  currency?: string;
  indicator?: 'CRDT' | 'DBIT';
  status?: string;
  reversal?: boolean;
  bookingDate?: string;
  acctSvcrRef?: string;
  subFamily?: string;
  proprietaryCode?: string;
  /** TxDtls written inside NtryDtls, as they are. */
  transactions?: string[];
  ustrd?: string[];
}

/** One Ntry in that version's shapes (001.02 `<Sts>BOOK</Sts>`, 001.08 `<Sts><Cd>BOOK</Cd></Sts>`). */
export function entry(version: Version, f: EntryFields): string {
  const status = f.status ?? 'BOOK';
  const sts = version === '001.02' ? `<Sts>${status}</Sts>` : `<Sts><Cd>${status}</Cd></Sts>`;
  const code = [
    f.subFamily ? `<Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>${f.subFamily}</SubFmlyCd></Fmly></Domn>` : '',
    f.proprietaryCode ? `<Prtry><Cd>${f.proprietaryCode}</Cd></Prtry>` : '',
  ].join('');
  const txs = f.transactions ?? (f.ustrd ? [`<TxDtls><RmtInf>${f.ustrd.map((u) => `<Ustrd>${u}</Ustrd>`).join('')}</RmtInf></TxDtls>`] : []);
  return [
    `<Ntry><Amt Ccy="${f.currency ?? 'EUR'}">${f.amount}</Amt><CdtDbtInd>${f.indicator ?? 'CRDT'}</CdtDbtInd>`,
    f.reversal ? '<RvslInd>true</RvslInd>' : '',
    sts,
    `<BookgDt><Dt>${f.bookingDate ?? '2024-05-01'}</Dt></BookgDt>`,
    f.acctSvcrRef ? `<AcctSvcrRef>${f.acctSvcrRef}</AcctSvcrRef>` : '',
    code ? `<BkTxCd>${code}</BkTxCd>` : '',
    txs.length ? `<NtryDtls>${txs.join('')}</NtryDtls>` : '',
    '</Ntry>',
  ].join('');
}

/** A booked statement line with defaults, for the matcher's tests. */
export function line(fields: Partial<StatementLine> & Pick<StatementLine, 'lineId'>): StatementLine {
  return {
    direction: 'credit',
    amountMinor: 10000n,
    amount: '100.00',
    currency: 'EUR',
    bookingDate: '2024-05-01',
    references: [],
    isReturn: false,
    booked: true,
    ...fields,
  };
}

/**
 * A bank statement as read from a camt.053 file (camt053.ts), in the shape the matcher (match-statement.ts) takes:
 * amounts in minor units as bigint, dates as YYYY-MM-DD, one line per booked transaction. docs/bank-statements.md.
 */

export interface BankStatement {
  /** The message's version, from its namespace: `001.02` for urn:iso:std:iso:20022:tech:xsd:camt.053.001.02. */
  version: string;
  messageId: string;
  statements: StatementAccount[];
}

/** One `Stmt`: one account over one period. */
export interface StatementAccount {
  statementId: string;
  iban?: string;
  otherAccountId?: string;
  currency?: string;
  fromDate?: string;
  toDate?: string;
  /** Signed: negative when the balance is a debit (DBIT). */
  openingBalanceMinor?: bigint;
  closingBalanceMinor?: bigint;
  lines: StatementLine[];
}

export interface StatementLine {
  /**
   * Stable within the file: the entry's AcctSvcrRef (+ `/n`, the 1-based transaction, when the entry is a batch),
   * else `entry-N` (the N-th entry of the file) and `entry-N/n`; a repeated id gets `#2`, `#3`, … so each is unique.
   */
  lineId: string;
  /** The direction money moved on the account (CdtDbtInd), a reversal's included. */
  direction: 'credit' | 'debit';
  /** Positive, in the currency's minor units, read exactly from the decimal text. */
  amountMinor: bigint;
  /** The amount as written, with the currency's number of decimals (`1250.50`; `1000` for JPY). */
  amount: string;
  currency: string;
  bookingDate?: string;
  valueDate?: string;
  /**
   * Every reference-like text on the line, each once ('NOTPROVIDED' left out): the transaction's Refs (EndToEndId,
   * InstrId, TxId, PmtInfId, MsgId, AcctSvcrRef, …), its remittance (Ustrd lines, Strd references), AddtlTxInf and
   * RtrInf/AddtlInf, then the entry's AcctSvcrRef and AddtlNtryInf.
   */
  references: string[];
  /** A returned or reversed payment: RvslInd, RtrInf, a return bank transaction code. */
  isReturn: boolean;
  returnReason?: string;
  counterpartyName?: string;
  /** BOOK, PDNG, INFO, FUTR, or a proprietary status. */
  status?: string;
  /** Only BOOK (or no status at all) is booked; pending and information lines are kept but never matched. */
  booked: boolean;
}

/** Why a file is refused: the closed list docs/bank-statements.md#refused-files explains (a test keeps the two equal). */
export const STATEMENT_FORMAT_CODES = ['too_large', 'not_xml', 'doctype', 'not_camt053', 'no_statement', 'missing_element', 'bad_amount', 'bad_currency', 'bad_date', 'bad_indicator'] as const;
export type StatementFormatCode = (typeof STATEMENT_FORMAT_CODES)[number];

/** A file that is not a camt.053 statement this reader can use; `code` says why, for callers and tests alike. */
export class StatementFormatError extends Error {
  override readonly name = 'StatementFormatError';
  constructor(
    readonly code: StatementFormatCode,
    message: string,
  ) {
    super(message);
  }
}

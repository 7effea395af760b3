import { type Money, readAmount, readDate, readIndicator, requiredAmount } from './camt-values.js';
import { at, children, text, textAt, type XmlNode } from './camt-xml.js';
import type { StatementLine } from './statement.js';

/**
 * One camt.053 entry (`Ntry`) as statement lines: one line for the entry, or one per transaction (`TxDtls`) when the
 * entry is a batch of several. docs/bank-statements.md says what is read from where.
 */

export interface EntryPlace {
  /** 1-based over the whole file, for `entry-N` line ids. */
  entryNumber: number;
  /** `statement 1 entry 3`, for errors. */
  where: string;
  accountCurrency?: string;
  /** The account owner's name: never the counterparty. */
  ownerName?: string;
}

/**
 * Bank transaction sub-families (ISO's External Code Sets) that are a payment coming back: RRTN a returned credit
 * transfer, RPCR one cancelled on request, UPDD and RCDD and PRDD a direct debit returned, cancelled or reversed,
 * ARET and AREV an ACH return and reversal.
 */
const RETURN_SUBFAMILIES = new Set(['RRTN', 'RPCR', 'UPDD', 'RCDD', 'PRDD', 'ARET', 'AREV']);

/** Refs children that carry an identifier a payer or our own payment file may have set (UETR, a UUID, is not one). */
const REF_FIELDS = ['EndToEndId', 'InstrId', 'TxId', 'PmtInfId', 'MsgId', 'AcctSvcrRef', 'MndtId', 'ChqNb', 'ClrSysRef', 'AcctOwnrTxId', 'AcctSvcrTxId'];

/** Whether a BkTxCd names a return: a return sub-family, or a proprietary code saying RETURN (`NRTI+RETURN`). */
export function isReturnCode(bkTxCd: XmlNode | undefined): boolean {
  if (!bkTxCd) return false;
  if (RETURN_SUBFAMILIES.has(textAt(bkTxCd, 'Domn', 'Fmly', 'SubFmlyCd').toUpperCase())) return true;
  return children(bkTxCd, 'Prtry').some((p) => /RETURN/i.test(textAt(p, 'Cd')));
}

/** The status: 001.02 writes `<Sts>BOOK</Sts>`, 001.08 `<Sts><Cd>BOOK</Cd></Sts>` (or `<Prtry>`). */
function statusOf(ntry: XmlNode): string | undefined {
  const sts = at(ntry, 'Sts');
  const v = text(sts) || textAt(sts, 'Cd') || textAt(sts, 'Prtry');
  return v === '' ? undefined : v.toUpperCase();
}

/** A party's name: 001.02 `<Dbtr><Nm>`, 001.08 `<Dbtr><Pty><Nm>`. */
const partyName = (party: XmlNode | undefined): string => textAt(party, 'Nm') || textAt(party, 'Pty', 'Nm');

/**
 * The other party: for money in the debtor (then ultimate debtor), for money out the creditor, the other side as a
 * last resort, as a return names the original payment's parties; never the account owner.
 */
function counterparty(tx: XmlNode | undefined, direction: 'credit' | 'debit', ownerName?: string): string | undefined {
  const parties = at(tx, 'RltdPties');
  const order = direction === 'credit' ? ['Dbtr', 'UltmtDbtr', 'Cdtr', 'UltmtCdtr'] : ['Cdtr', 'UltmtCdtr', 'Dbtr', 'UltmtDbtr'];
  const owner = ownerName?.toUpperCase();
  return order.map((role) => partyName(at(parties, role))).find((name) => name !== '' && name.toUpperCase() !== owner);
}

/** Every reference-like text of a transaction then of its entry, in StatementLine.references' order, each once. */
function referencesOf(ntry: XmlNode, tx: XmlNode | undefined): string[] {
  const refs = at(tx, 'Refs');
  const rmt = children(tx, 'RmtInf');
  const texts = [
    ...REF_FIELDS.map((f) => textAt(refs, f)),
    ...rmt.flatMap((r) => children(r, 'Ustrd').map(text)),
    ...rmt.flatMap((r) =>
      children(r, 'Strd').flatMap((s) => [
        ...children(s, 'CdtrRefInf').map((c) => textAt(c, 'Ref')),
        ...children(s, 'RfrdDocInf').map((d) => textAt(d, 'Nb')),
        ...children(s, 'AddtlRmtInf').map(text),
      ]),
    ),
    ...children(tx, 'AddtlTxInf').map(text),
    ...children(at(tx, 'RtrInf'), 'AddtlInf').map(text),
    textAt(ntry, 'AcctSvcrRef'),
    ...children(ntry, 'AddtlNtryInf').map(text),
  ];
  return [...new Set(texts.filter((t) => t !== '' && t.toUpperCase() !== 'NOTPROVIDED'))];
}

/** A transaction's own amount: TxDtls/Amt (001.03 on) or TxDtls/AmtDtls/TxAmt/Amt (001.02), in the account's currency. */
function ownAmount(tx: XmlNode, where: string, fallbackCurrency?: string): Money | undefined {
  const amt = at(tx, 'Amt') ?? at(tx, 'AmtDtls', 'TxAmt', 'Amt');
  return amt ? readAmount(amt, where, fallbackCurrency) : undefined;
}

export function entryLines(ntry: XmlNode, place: EntryPlace): StatementLine[] {
  const { where } = place;
  const entryMoney = requiredAmount(ntry, where, place.accountCurrency);
  const entryDirection = readIndicator(ntry, where, true)!;
  // RvslInd only flags the entry: ISO 20022 says CdtDbtInd already is the reversal's own direction (a CRDT
  // reversal undoes a debit), so the direction is not turned around.
  const reversal = /^(true|1)$/i.test(textAt(ntry, 'RvslInd'));
  const status = statusOf(ntry);
  const booked = status === undefined || status === 'BOOK';
  const bookingDate = readDate(at(ntry, 'BookgDt'), `${where} BookgDt`);
  const valueDate = readDate(at(ntry, 'ValDt'), `${where} ValDt`);
  const entryReturn = reversal || isReturnCode(at(ntry, 'BkTxCd'));
  const txs = children(ntry, 'NtryDtls').flatMap((d) => children(d, 'TxDtls'));
  const batched = txs.length > 1;
  const base = textAt(ntry, 'AcctSvcrRef') || `entry-${place.entryNumber}`;

  return (txs.length === 0 ? [undefined] : txs).map((tx, i) => {
    const txWhere = batched ? `${where} transaction ${i + 1}` : where;
    // A lone transaction is the entry: its booked amount is the entry's (a transaction's may be before charges).
    const money = (batched && tx && ownAmount(tx, txWhere, entryMoney.currency)) || entryMoney;
    const direction = (batched && tx && readIndicator(tx, txWhere, false)) || entryDirection;
    const rtrInf = at(tx, 'RtrInf');
    const returnReason = textAt(rtrInf, 'Rsn', 'Cd') || textAt(rtrInf, 'Rsn', 'Prtry') || textAt(rtrInf, 'AddtlInf');
    const counterpartyName = counterparty(tx, direction, place.ownerName);
    return {
      lineId: batched ? `${base}/${i + 1}` : base,
      direction,
      amountMinor: money.minor,
      amount: money.amount,
      currency: money.currency,
      ...(bookingDate ? { bookingDate } : {}),
      ...(valueDate ? { valueDate } : {}),
      references: referencesOf(ntry, tx),
      isReturn: entryReturn || rtrInf !== undefined || isReturnCode(at(tx, 'BkTxCd')),
      ...(returnReason ? { returnReason } : {}),
      ...(counterpartyName ? { counterpartyName } : {}),
      ...(status ? { status } : {}),
      booked,
    };
  });
}

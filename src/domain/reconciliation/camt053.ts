import { entryLines } from './camt-entry.js';
import { readDate, readIndicator, requiredAmount } from './camt-values.js';
import { at, children, readCamtDocument, textAt, type XmlNode } from './camt-xml.js';
import { type BankStatement, type StatementAccount, StatementFormatError, type StatementLine } from './statement.js';

/**
 * ISO 20022 camt.053 (BankToCustomerStatement) read into a BankStatement, any version 001.NN: the elements read
 * have kept their names since 001.02, and where versions differ (an entry's status, a party's name, a transaction's
 * amount) both shapes are read. Refuses with StatementFormatError: docs/bank-statements.md lists the codes.
 */
export function parseCamt053(xml: string): BankStatement {
  const { version, document } = readCamtDocument(xml);
  const message = at(document, 'BkToCstmrStmt');
  if (!message) throw new StatementFormatError('not_camt053', 'not a camt.053 statement: no BkToCstmrStmt element');
  const messageId = textAt(message, 'GrpHdr', 'MsgId');
  if (messageId === '') throw new StatementFormatError('missing_element', 'GrpHdr: no MsgId');
  const stmts = children(message, 'Stmt');
  if (stmts.length === 0) throw new StatementFormatError('no_statement', 'the message has no Stmt');
  const numbering = { entries: 0 };
  const statements = stmts.map((stmt, i) => readStatement(stmt, `statement ${i + 1}`, numbering));
  uniqueLineIds(statements.flatMap((s) => s.lines));
  return { version, messageId, statements };
}

function readStatement(stmt: XmlNode, where: string, numbering: { entries: number }): StatementAccount {
  const statementId = textAt(stmt, 'Id');
  if (statementId === '') throw new StatementFormatError('missing_element', `${where}: no Id`);
  const acct = at(stmt, 'Acct');
  const iban = textAt(acct, 'Id', 'IBAN').replace(/\s+/g, '').toUpperCase();
  const otherAccountId = textAt(acct, 'Id', 'Othr', 'Id');
  const currency = textAt(acct, 'Ccy').toUpperCase();
  const ownerName = textAt(acct, 'Ownr', 'Nm') || textAt(acct, 'Ownr', 'Pty', 'Nm');
  const fromDate = readDate(at(stmt, 'FrToDt', 'FrDtTm'), `${where} FrDtTm`);
  const toDate = readDate(at(stmt, 'FrToDt', 'ToDtTm'), `${where} ToDtTm`);
  const balances = balancesOf(stmt, where, currency || undefined);
  const lines: StatementLine[] = children(stmt, 'Ntry').flatMap((ntry, j) =>
    entryLines(ntry, {
      entryNumber: ++numbering.entries,
      where: `${where} entry ${j + 1}`,
      ...(currency ? { accountCurrency: currency } : {}),
      ...(ownerName ? { ownerName } : {}),
    }),
  );
  return {
    statementId,
    ...(iban ? { iban } : {}),
    ...(otherAccountId ? { otherAccountId } : {}),
    ...(currency ? { currency } : {}),
    ...(fromDate ? { fromDate } : {}),
    ...(toDate ? { toDate } : {}),
    ...balances,
    lines,
  };
}

/**
 * The opening (OPBD, else PRCD: the previous statement's closing) and closing (CLBD) booked balances, signed.
 * 001.02 to 001.08 all write the type as Tp/CdOrPrtry/Cd; other types (available, interim) are not read.
 */
function balancesOf(stmt: XmlNode, where: string, currency?: string): Pick<StatementAccount, 'openingBalanceMinor' | 'closingBalanceMinor'> {
  const byType = new Map<string, bigint>();
  children(stmt, 'Bal').forEach((bal, i) => {
    const type = textAt(bal, 'Tp', 'CdOrPrtry', 'Cd').toUpperCase();
    if (!['OPBD', 'PRCD', 'CLBD'].includes(type) || byType.has(type)) return;
    const balWhere = `${where} balance ${i + 1}`;
    const { minor } = requiredAmount(bal, balWhere, currency);
    byType.set(type, readIndicator(bal, balWhere, true) === 'debit' ? -minor : minor);
  });
  const opening = byType.get('OPBD') ?? byType.get('PRCD');
  const closing = byType.get('CLBD');
  return { ...(opening !== undefined ? { openingBalanceMinor: opening } : {}), ...(closing !== undefined ? { closingBalanceMinor: closing } : {}) };
}

/** A line id seen before (two entries with one AcctSvcrRef) gets `#2`, `#3`, …: ids stay unique and stable. */
function uniqueLineIds(lines: StatementLine[]): void {
  const taken = new Set<string>();
  // The next suffix to try per id, so a thousand entries sharing one reference cost a thousand lookups, not a million.
  const next = new Map<string, number>();
  for (const line of lines) {
    const base = line.lineId;
    let id = base;
    let n = next.get(base) ?? 2;
    while (taken.has(id)) id = `${base}#${n++}`;
    next.set(base, n);
    taken.add(id);
    line.lineId = id;
  }
}

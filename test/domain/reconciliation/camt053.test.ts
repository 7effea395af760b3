import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCamt053 } from '../../../src/domain/reconciliation/camt053.js';
import { StatementFormatError, type StatementFormatCode } from '../../../src/domain/reconciliation/statement.js';
import { entry, fixture, statementXml } from './helpers.js';

/** assert.throws's check: a StatementFormatError of that code, its message matching. */
const refused = (code: StatementFormatCode, message?: RegExp) => (e: unknown) => {
  assert.ok(e instanceof StatementFormatError, `not a StatementFormatError: ${String(e)}`);
  assert.equal(e.code, code, e.message);
  if (message) assert.match(e.message, message);
  return true;
};

/** The signed sum of a statement's booked lines: opening plus it must give closing when every line was read right. */
const bookedMovement = (lines: { direction: string; amountMinor: bigint; booked: boolean }[]) =>
  lines.filter((l) => l.booked).reduce((sum, l) => sum + (l.direction === 'credit' ? l.amountMinor : -l.amountMinor), 0n);

/** A fixture's statement parsed, its one statement and its lines by id. */
function read(file: string) {
  const parsed = parseCamt053(fixture(file));
  const stmt = parsed.statements[0];
  return { parsed, stmt, byId: new Map(stmt!.lines.map((l) => [l.lineId, l])) };
}

/** What a statement says of itself: the message, the account, the period and the balances, which its lines add up to. */
function header(parsed: ReturnType<typeof parseCamt053>) {
  const stmt = parsed.statements[0]!;
  const { statementId, iban, otherAccountId, currency, fromDate, toDate, openingBalanceMinor, closingBalanceMinor } = stmt;
  const adds_up = openingBalanceMinor! + bookedMovement(stmt.lines) === closingBalanceMinor;
  return { version: parsed.version, messageId: parsed.messageId, statements: parsed.statements.length, statementId, iban, otherAccountId, currency, fromDate, toDate, openingBalanceMinor, closingBalanceMinor, adds_up };
}

describe('camt.053.001.02 (fixture)', () => {
  const { parsed, stmt, byId } = read('statement-001.02.xml');

  it('reads the header, the account, the period and the balances (PRCD as the opening one)', () => {
    const period = { fromDate: '2024-01-15', toDate: '2024-01-15', openingBalanceMinor: 1_000_000n, closingBalanceMinor: 1_118_050n, adds_up: true };
    const account = { iban: 'DE89370400440532013000', otherAccountId: undefined, currency: 'EUR' };
    assert.deepEqual(header(parsed), { version: '001.02', messageId: 'STMT-20240115-0001', statements: 1, statementId: 'DE89370400440532013000-2024-01-15', ...account, ...period });
  });

  it('reads a credit with its remittance, NOTPROVIDED left out, and the payer as counterparty', () => {
    assert.deepEqual(byId.get('2024011500001'), {
      lineId: '2024011500001',
      direction: 'credit',
      amountMinor: 125_050n,
      amount: '1250.50',
      currency: 'EUR',
      bookingDate: '2024-01-15',
      valueDate: '2024-01-15',
      references: ['EINZAHLUNG DEP 7K3M 9Q2X R4TB', '2024011500001', 'SEPA-GUTSCHRIFT'],
      isReturn: false,
      counterpartyName: 'Erika Mustermann',
      status: 'BOOK',
      booked: true,
    });
  });

  it('reads a debit: the payee as counterparty, our own message and payment ids among the references', () => {
    const payout = byId.get('2024011500002')!;
    assert.equal(payout.direction, 'debit');
    assert.equal(payout.amountMinor, 30_000n);
    assert.equal(payout.counterpartyName, 'Max Muster');
    assert.deepEqual(payout.references, ['WDR-5N8P2H6JZ1CA', 'PMT-20240115-7', 'PAIN-20240115-7', 'Payout WDR-5N8P2H6JZ1CA', '2024011500002']);
  });

  it('splits a batched entry into one line per transaction, each with its own amount and references', () => {
    const first = byId.get('2024011500003/1')!;
    const second = byId.get('2024011500003/2')!;
    assert.equal(byId.has('2024011500003'), false);
    assert.deepEqual([first.amountMinor, second.amountMinor], [10_000n, 5_000n]);
    assert.deepEqual(first.references, ['E2E-PAYER-A-0001', 'DEP-A1B2C3D4E5F6', '2024011500003']);
    assert.deepEqual(second.references, ['E2E-PAYER-B-0002', 'dep-g7h8j9k0m1n2', '2024011500003']);
    // Character references and &amp; decoded.
    assert.equal(second.counterpartyName, 'Ana Pérez & Hijos');
    assert.equal(second.valueDate, '2024-01-16');
  });

  it('marks a returned payout (RRTN, RtrInf) with its reason, and keeps a pending line unbooked', () => {
    const ret = byId.get('2024011500004')!;
    assert.deepEqual([ret.direction, ret.isReturn, ret.returnReason, ret.counterpartyName], ['credit', true, 'AC04', 'Closed Account Holder']);
    assert.ok(ret.references.includes('Account closed'));
    const pending = byId.get('entry-5')!;
    assert.equal(pending.status, 'PDNG');
    assert.equal(pending.booked, false);
    assert.deepEqual(pending.references, ['DEP-HX4TQ0N7PZ2M']);
    assert.equal(stmt!.lines.length, 6);
  });
});

describe('camt.053.001.08 (fixture)', () => {
  const { parsed, stmt, byId } = read('statement-001.08.xml');

  it('reads the header, an account without IBAN and the booked balances (not CLAV)', () => {
    const period = { fromDate: '2024-03-04', toDate: '2024-03-04', openingBalanceMinor: 500_000n, closingBalanceMinor: 554_750n, adds_up: true };
    const account = { iban: undefined, otherAccountId: '4420118876', currency: 'USD' };
    assert.deepEqual(header(parsed), { version: '001.08', messageId: '20240305-USD-000184', statements: 1, statementId: '000184', ...account, ...period });
  });

  it('reads Sts/Cd, a DtTm booking date as its day as written, Pty/Nm, and the remittance lines in order', () => {
    const deposit = byId.get('FT24064QW81K')!;
    assert.equal(deposit.status, 'BOOK');
    assert.equal(deposit.booked, true);
    assert.equal(deposit.bookingDate, '2024-03-04');
    assert.equal(deposit.counterpartyName, 'ACME TRADING LLC');
    assert.deepEqual(deposit.references, ['ACME-PAY-55120', 'DEPOSIT FOR ACCOUNT 81234 REFERENCE DEP-HX4T', 'Q0N7PZ2M THANK YOU', 'FT24064QW81K']);
  });

  it('takes a reversal (RvslInd) in the direction CdtDbtInd gives, as a return', () => {
    const reversal = byId.get('FT24064RV0093')!;
    assert.equal(reversal.direction, 'credit');
    assert.equal(reversal.isReturn, true);
    assert.equal(reversal.returnReason, undefined);
    assert.equal(reversal.counterpartyName, 'BOB BUILDER');
    assert.deepEqual(reversal.references, ['WDR-M2K8D5FR9WQ1', 'FT24064RV0093', 'REVERSAL OF OUTGOING PAYMENT']);
  });

  it('names the lines of a batch without AcctSvcrRef entry-N/n, N counting entries over the file', () => {
    assert.deepEqual(
      stmt!.lines.map((l) => [l.lineId, l.direction, l.amount, l.booked]),
      [
        ['FT24064QW81K', 'credit', '1000.00', true],
        ['FT24064RV0093', 'credit', '250.00', true],
        ['entry-3/1', 'debit', '450.00', true],
        ['entry-3/2', 'debit', '250.00', true],
        ['FT24065INF001', 'credit', '12.00', false],
        ['FEE-20240304', 'debit', '2.50', true],
      ],
    );
    assert.equal(byId.get('entry-3/2')!.counterpartyName, 'DAVE LISTER');
    assert.equal(byId.get('FT24065INF001')!.status, 'INFO');
  });
});

describe('camt.053 shapes in both versions', () => {
  for (const version of ['001.02', '001.08'] as const) {
    it(`${version}: a prefixed namespace, an IBAN written with spaces, the version from the namespace`, () => {
      const parsed = parseCamt053(statementXml(version, entry(version, { amount: '5', ustrd: ['x'] }), { prefix: 'ns2' }));
      assert.equal(parsed.version, version);
      assert.equal(parsed.statements[0]!.iban, 'CH9300762011623852957');
      assert.equal(parsed.statements[0]!.lines[0]!.amount, '5.00');
    });

    it(`${version}: return codes: RRTN and the other return sub-families, a proprietary RETURN, RvslInd on a debit`, () => {
      const entries = [
        entry(version, { amount: '1.00', subFamily: 'RRTN' }),
        entry(version, { amount: '1.00', subFamily: 'UPDD' }),
        entry(version, { amount: '1.00', proprietaryCode: 'NRTI+RETURN' }),
        entry(version, { amount: '1.00', indicator: 'DBIT', reversal: true }),
        entry(version, { amount: '1.00', subFamily: 'ESCT', proprietaryCode: 'NTRF+166' }),
      ].join('');
      const lines = parseCamt053(statementXml(version, entries)).statements[0]!.lines;
      assert.deepEqual(
        lines.map((l) => [l.direction, l.isReturn]),
        [
          ['credit', true],
          ['credit', true],
          ['credit', true],
          ['debit', true],
          ['credit', false],
        ],
      );
    });

    it(`${version}: a batch whose transactions give no amount repeats the entry's; one transaction is no batch`, () => {
      const tx = (ref: string) => `<TxDtls><Refs><EndToEndId>${ref}</EndToEndId></Refs></TxDtls>`;
      const amt = '<Amt Ccy="EUR">7.00</Amt>';
      const before = `<TxDtls>${version === '001.02' ? `<AmtDtls><TxAmt>${amt}</TxAmt></AmtDtls>` : `${amt}<CdtDbtInd>CRDT</CdtDbtInd>`}</TxDtls>`;
      const entries = [
        entry(version, { amount: '30.00', acctSvcrRef: 'B1', transactions: [tx('A'), tx('B')] }),
        entry(version, { amount: '7.10', acctSvcrRef: 'S1', transactions: [tx('C')] }),
        // One transaction of 7.00 booked as 6.50 after a charge: the line is what was booked.
        entry(version, { amount: '6.50', acctSvcrRef: 'S2', transactions: [before] }),
      ].join('');
      const lines = parseCamt053(statementXml(version, entries)).statements[0]!.lines;
      assert.deepEqual(
        lines.map((l) => [l.lineId, l.amountMinor, l.references]),
        [
          ['B1/1', 3000n, ['A', 'B1']],
          ['B1/2', 3000n, ['B', 'B1']],
          ['S1', 710n, ['C', 'S1']],
          ['S2', 650n, ['S2']],
        ],
      );
    });
  }

  it('minor units per currency: JPY 0, KWD 3, EUR 2; trailing zeros below the unit are fine, digits are not', () => {
    const one = (amount: string, currency: string) => parseCamt053(statementXml('001.08', entry('001.08', { amount, currency }), { currency })).statements[0]!.lines[0]!;
    assert.deepEqual([one('125000', 'JPY').amountMinor, one('125000', 'JPY').amount], [125000n, '125000']);
    assert.deepEqual([one('12.5', 'KWD').amountMinor, one('12.5', 'KWD').amount], [12500n, '12.500']);
    assert.deepEqual([one('0012.50000', 'EUR').amountMinor, one('0012.50000', 'EUR').amount], [1250n, '12.50']);
    assert.throws(() => one('12.505', 'EUR'), refused('bad_amount', /12\.505/));
    assert.throws(() => one('1.5', 'JPY'), refused('bad_amount'));
  });

  it('a large statement: every entry read (3,000 entries of one transaction each, 1.3 MB), one AcctSvcrRef for all', () => {
    const tx = (i: number) => `<TxDtls><Refs><EndToEndId>E2E-${i}</EndToEndId></Refs><Amt Ccy="EUR">${i}.25</Amt><RltdPties><Dbtr><Pty><Nm>Payer ${i}</Nm></Pty></Dbtr></RltdPties><RmtInf><Ustrd>Deposit DEP-${String(i).padStart(12, '0')}</Ustrd></RmtInf></TxDtls>`;
    const entries = Array.from({ length: 3000 }, (_, i) => entry('001.08', { amount: `${i}.25`, acctSvcrRef: 'SAME', transactions: [tx(i)] })).join('\n');
    const xml = statementXml('001.08', entries);
    assert.ok(xml.length > 1_000_000);
    const lines = parseCamt053(xml).statements[0]!.lines;
    assert.equal(lines.length, 3000);
    assert.deepEqual([lines[2999]!.lineId, lines[2999]!.amountMinor, lines[2999]!.references[1]], ['SAME#3000', 299_925n, 'Deposit DEP-000000002999']);
  });

  it('two entries with one AcctSvcrRef get distinct line ids', () => {
    const entries = entry('001.02', { amount: '1', acctSvcrRef: 'R' }) + entry('001.02', { amount: '2', acctSvcrRef: 'R' });
    assert.deepEqual(parseCamt053(statementXml('001.02', entries)).statements[0]!.lines.map((l) => l.lineId), ['R', 'R#2']);
  });
});

describe('files that are refused', () => {
  it('not XML at all, or not well-formed', () => {
    assert.throws(() => parseCamt053(''), refused('not_xml'));
    assert.throws(() => parseCamt053('Date;Amount;Reference\n2024-01-01;10.00;DEP-1'), refused('not_xml'));
    assert.throws(() => parseCamt053('{"statement": []}'), refused('not_xml'));
    assert.throws(() => parseCamt053(statementXml('001.02', '').replace('</Stmt>', '')), refused('not_xml', /line \d+/));
  });

  it('another ISO 20022 message (camt.052, camt.054), or no namespace at all', () => {
    const camt052 = statementXml('001.02', '').replace('camt.053', 'camt.052').replace(/BkToCstmrStmt/g, 'BkToCstmrAcctRpt');
    assert.throws(() => parseCamt053(camt052), refused('not_camt053', /camt\.052\.001\.02/));
    assert.throws(() => parseCamt053(statementXml('001.08', '').replace('camt.053', 'camt.054')), refused('not_camt053', /camt\.054/));
    assert.throws(() => parseCamt053('<Document><BkToCstmrStmt/></Document>'), refused('not_camt053'));
    assert.throws(() => parseCamt053('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'), refused('not_camt053'));
  });

  it('a statement message without a Stmt, or without its MsgId', () => {
    const empty = statementXml('001.02', '').replace(/<Stmt>[\s\S]*<\/Stmt>/, '');
    assert.throws(() => parseCamt053(empty), refused('no_statement'));
    assert.throws(() => parseCamt053(statementXml('001.02', '').replace('<MsgId>MSG-1</MsgId>', '')), refused('missing_element', /MsgId/));
  });

  it('a billion-laughs DOCTYPE, refused before any entity is read, and an external entity likewise', () => {
    const lol = ['<!ENTITY lol0 "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`)].join('');
    const bomb = `<?xml version="1.0"?><!DOCTYPE Document [${lol}]>${statementXml('001.02', entry('001.02', { amount: '1', ustrd: ['&lol9;'] })).replace(/^<\?xml[^>]*\?>/, '')}`;
    const started = performance.now();
    assert.throws(() => parseCamt053(bomb), refused('doctype'));
    assert.ok(performance.now() - started < 1000);
    const xxe = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">&x;</Document>`;
    assert.throws(() => parseCamt053(xxe), refused('doctype'));
  });

  it('an amount that is not a decimal: 1e3, a sign, a comma, empty', () => {
    for (const amount of ['1e3', '-5.00', '+5.00', '1,50', '', '0x10', 'Infinity', '1.2.3', '1'.repeat(19)]) {
      assert.throws(() => parseCamt053(statementXml('001.02', entry('001.02', { amount }))), refused('bad_amount'), amount);
    }
  });

  it('a currency that is no ISO code, an indicator neither CRDT nor DBIT, a date that is none', () => {
    assert.throws(() => parseCamt053(statementXml('001.02', entry('001.02', { amount: '1', currency: 'euro' }))), refused('bad_currency', /statement 1 entry 1/));
    assert.throws(() => parseCamt053(statementXml('001.02', entry('001.02', { amount: '1' }).replace('CRDT', 'CREDIT'))), refused('bad_indicator'));
    assert.throws(() => parseCamt053(statementXml('001.02', entry('001.02', { amount: '1', bookingDate: '2024-02-30' }))), refused('bad_date', /BookgDt/));
  });

  it('elements nested deeper than any statement (the parser refuses them, reported as not XML)', () => {
    const deep = statementXml('001.02', entry('001.02', { amount: '1', ustrd: [`${'<a>'.repeat(500)}x${'</a>'.repeat(500)}`] }));
    assert.throws(() => parseCamt053(deep), refused('not_xml', /nested/));
  });

  it('a file over the size limit, unread', () => {
    assert.throws(() => parseCamt053(' '.repeat(32 * 1024 * 1024 + 1)), refused('too_large'));
  });
});

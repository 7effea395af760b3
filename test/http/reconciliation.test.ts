import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_DEV_KEY } from '../../src/chain/demo-vault.js';
import { run } from '../../src/cli/admin-commands.js';
import { withdrawalPayouts } from '../../src/db/schema/index.js';
import { createOperator } from '../../src/domain/operators/operators.js';
import { openLedger } from '../../src/domain/ledger/opening.js';
import { adminRequest } from '../harness/admin.js';
import type { Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, type Customer } from '../harness/customers.js';
import { verifiedBankAccount, withdrawalInTransfer } from '../harness/money.js';
import { openApiChecker, type OpenApiDoc } from '../harness/openapi.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsWithToken } from '../harness/tokens.js';
import { entry, statementXml } from '../domain/reconciliation/helpers.js';

// Reconciliation (docs/reconciliation.md) on a real chain and a bank statement built from the run's own deposits and
// payouts: money reaching the treasury or a wallet outside the service is a break until an operator records it; a
// statement with injected differences (an unknown credit, a payout paid twice, an amount off by a cent, a returned
// payout) reports exactly those exceptions, and the same statement imported twice matches nothing again.

const DEV = privateKeyToAccount(ANVIL_DEV_KEY);

interface Break {
  breakId: string;
  ledgerAccountCode: string;
  asset: { code: string };
  accountId: string | null;
  difference: { amountRaw: string };
  status: string;
}
interface Run {
  runId: string;
  kind: string;
  summary: Record<string, number>;
  breaks: Break[];
  exceptions: { exceptionId: string; type: string; line: { lineId: string; amount: string } | null; expected: { kind: string; reference: string } | null; status: string }[];
  matched: { kind: string; reference: string }[];
}

for (const backend of backends()) {
  describe(`reconciliation against the chain and the bank [${backend}]`, () => {
    let server: TestServer;
    let chain: Anvil;
    let acme: SeededIntegrator;
    let alice: Customer;
    let operator: string;
    let checker: ReturnType<typeof openApiChecker>;
    let dir: string;

    before(async () => {
      ({ server, chain, tenants: [acme] } = await startTenantsWithToken(backend, 8453, ['Acme'], { CHAIN_CONFIRMATIONS: '8453=1', INCOMING_POLL_MS: '60000', WITHDRAWAL_RAILS: 'ach' }));
      await server.incoming!.runOnce();
      alice = await createCustomer(server, acme);
      operator = (await createOperator(server.database, 'reconciler', server.clock.now())).token;
      checker = openApiChecker((await fetch(`${server.url}/admin/openapi.json`).then((r) => r.json())) as OpenApiDoc);
      await send(alice.walletAddress, ETH);
      await server.incoming!.runOnce();
      dir = mkdtempSync(join(tmpdir(), 'statements-'));
    });
    after(async () => {
      await server?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    async function send(to: string, wei: bigint): Promise<void> {
      const hash = await chain.rpc<Hex>('eth_sendTransaction', [{ from: DEV.address, to, value: `0x${wei.toString(16)}` }]);
      await chain.mined(hash);
    }
    async function admin(method: string, path: string, body?: unknown) {
      const res = await adminRequest(server, method, `/admin/api${path}`, { token: operator, ...(body === undefined ? {} : { body }) });
      checker.assertConforms(method, `/admin/api${path}`, res);
      return res;
    }
    const runChain = async () => {
      await server.incoming!.runOnce();
      const res = await admin('POST', '/reconciliations', { kind: 'chain' });
      assert.equal(res.status, 201, res.text);
      return res.body as Run;
    };

    it('against the chain: every holding equal, but for money that reached the treasury and a wallet from outside; recorded, the next run is clean', async () => {
      await send(server.treasury!.address, 2n * ETH);
      await chain.setBalance(alice.walletAddress, BigInt(await chain.rpc<string>('eth_getBalance', [alice.walletAddress, 'latest'])) + 5n * 10n ** 17n);
      const first = await runChain();
      const breaks = first.breaks.map((b) => [b.ledgerAccountCode.split(':')[0], b.asset.code, b.difference.amountRaw]).sort();
      assert.deepEqual(breaks, [
        ['customer', 'eip155:8453/slip44:60', String(5n * 10n ** 17n)],
        ['treasury', 'eip155:8453/slip44:60', String(2n * ETH)],
      ]);
      assert.equal(first.breaks.find((b) => b.ledgerAccountCode.startsWith('customer'))?.accountId, alice.accountId);
      for (const b of first.breaks) {
        const resolved = await admin('POST', `/reconciliations/${first.runId}/breaks/${b.breakId}/resolve`, { note: 'funded from outside the service', adjust: true });
        assert.equal(resolved.status, 200, resolved.text);
        assert.ok(resolved.body.adjustmentLedgerTransactionId);
      }
      assert.equal((await admin('POST', `/reconciliations/${first.runId}/breaks/${first.breaks[0]!.breakId}/resolve`, { note: 'again', adjust: true })).status, 409);
      const second = await runChain();
      assert.deepEqual(second.breaks, [], 'the adjustments account for the differences');
      const balance = await admin('GET', '/ledger/trial-balance');
      assert.equal(balance.body.balanced, true);
    });

    it('against the bank: the injected differences are exactly the exceptions; returned payouts match twice; the same file twice is a 409', async () => {
      const deposit = async (amount: string) => {
        server.clock.advance(1000);
        const created = await acme.client.post('/v1/submit/create-deposit', { accountId: alice.accountId, amount, currency: 'USD', chainId: 8453 });
        assert.equal((await acme.client.post('/v1/sandbox/simulate-deposit', { transactionId: created.body.transactionId, amount })).status, 200);
        return created.body.fiatDepositInstructions.reference as string;
      };
      const paid = await deposit('100.00');
      const short = await deposit('50.00');
      const bank = await verifiedBankAccount(server, acme, alice.accountId);
      const payout = async (amount: string, outcome: 'settled' | 'returned') => {
        const w = await withdrawalInTransfer(server, acme, alice, bank, amount);
        const [p] = await server.database.db.select().from(withdrawalPayouts).where(eq(withdrawalPayouts.transactionRowId, w.transactionId));
        assert.equal((await admin('POST', `/withdrawals/${p!.reference}/payout-sent`, {})).status, 200);
        assert.equal((await admin('POST', `/withdrawals/${p!.reference}/${outcome}`, outcome === 'returned' ? { reason: 'account closed' } : {})).status, 200);
        return p!.reference;
      };
      const settledPayout = await payout('20.00', 'settled');
      const returned = await payout('7.00', 'returned');
      const today = server.clock.now().toISOString().slice(0, 10);
      const line = (amount: string, indicator: 'CRDT' | 'DBIT', reference: string, extra: { subFamily?: string; acctSvcrRef?: string } = {}) =>
        entry('001.08', { amount, currency: 'USD', indicator, bookingDate: today, ustrd: [reference], ...extra });
      const xml = statementXml(
        '001.08',
        [
          line('100.00', 'CRDT', paid),
          line('50.01', 'CRDT', short),
          line('20.00', 'DBIT', settledPayout),
          line('20.00', 'DBIT', settledPayout),
          line('7.00', 'DBIT', returned),
          line('7.00', 'CRDT', returned, { subFamily: 'RRTN' }),
          line('33.00', 'CRDT', 'INVOICE 991'),
        ].join(''),
        { currency: 'USD' },
      );
      const res = await admin('POST', '/reconciliations', { kind: 'bank', statement: xml });
      assert.equal(res.status, 201, res.text);
      const bankRun = res.body as Run;
      assert.deepEqual(bankRun.matched.map((m) => `${m.kind} ${m.reference}`).sort(), [`deposit ${paid}`, `payout ${returned}`, `payout ${settledPayout}`, `payout_return ${returned}`].sort());
      assert.deepEqual(bankRun.exceptions.map((e) => e.type).sort(), ['amount_mismatch', 'duplicate', 'unknown_line']);
      const mismatch = bankRun.exceptions.find((e) => e.type === 'amount_mismatch')!;
      assert.deepEqual([mismatch.expected?.reference, mismatch.line?.amount], [short, '50.01'], 'one cent off is one exception, naming the deposit');

      const again = await admin('POST', '/reconciliations', { kind: 'bank', statement: xml });
      assert.deepEqual([again.status, again.body.code, again.body.runId], [409, 'statement_already_imported', bankRun.runId]);

      // Worked in the console: the short deposit matched by hand, the unknown credit resolved with a note.
      const matched = await admin('POST', `/reconciliations/${bankRun.runId}/exceptions/${mismatch.exceptionId}/match`, { kind: 'deposit', reference: short, note: 'the sender paid a cent more' });
      assert.equal(matched.status, 200, matched.text);
      assert.equal(matched.body.status, 'matched');
      const unknown = bankRun.exceptions.find((e) => e.type === 'unknown_line')!;
      assert.equal((await admin('POST', `/reconciliations/${bankRun.runId}/exceptions/${unknown.exceptionId}/resolve`, { note: 'interest from the bank' })).body.status, 'resolved');
      const duplicate = bankRun.exceptions.find((e) => e.type === 'duplicate')!;
      const twice = await admin('POST', `/reconciliations/${bankRun.runId}/exceptions/${duplicate.exceptionId}/match`, { kind: 'payout', reference: settledPayout });
      assert.deepEqual([twice.status, twice.body.code], [409, 'already_matched'], 'a movement is matched once');

      // Another statement repeating a line already matched (through the CLI): a duplicate, nothing matched again.
      const file = join(dir, 'next.xml');
      writeFileSync(file, statementXml('001.02', entry('001.02', { amount: '100.00', currency: 'USD', indicator: 'CRDT', bookingDate: today, ustrd: [paid] }), { currency: 'USD' }));
      const cli = (await run(['reconcile', 'bank', '--file', file], {}, { system: server.system })) as Run;
      assert.deepEqual([cli.kind, cli.matched, cli.exceptions.map((e) => e.type)], ['bank', [], ['duplicate']]);
      assert.equal(((await run(['reconcile', 'chain'], {}, { system: server.system })) as Run).breaks.length, 0);
    });

    it('refuses what is not a statement, naming the field; runs are listed; operators get an event, integrators none', async () => {
      const bad = await admin('POST', '/reconciliations', { kind: 'bank', statement: '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.02"/>' });
      assert.deepEqual([bad.status, bad.body.errors?.[0]?.pointer, bad.body.errors?.[0]?.code], [400, '/statement', 'not_camt053']);
      assert.equal((await admin('POST', '/reconciliations', { kind: 'bank' })).status, 400);
      // The statement file itself as the body: a bank run of it; another media type is a 415.
      const file = statementXml('001.02', entry('001.02', { amount: '1.00', currency: 'USD', indicator: 'DBIT', ustrd: ['BANK FEE'] }), { currency: 'USD' });
      const upload = (type: string) => fetch(`${server.url}/admin/api/reconciliations`, { method: 'POST', headers: { authorization: `Bearer ${operator}`, 'content-type': type }, body: file });
      const raw = await upload('application/xml');
      assert.equal(raw.status, 201, await raw.clone().text());
      assert.deepEqual(((await raw.json()) as Run).exceptions.map((e) => e.type), ['unknown_line']);
      assert.equal((await upload('text/xml; charset=utf-8')).status, 409, 'the same file again');
      assert.equal((await upload('text/plain')).status, 415);
      assert.equal((await admin('POST', '/reconciliations', { kind: 'ledger' })).status, 400);
      const runs = await admin('GET', '/reconciliations?limit=2');
      assert.equal(runs.status, 200, runs.text);
      assert.equal(runs.body.data.length, 2);
      const next = await admin('GET', `/reconciliations?limit=2&startingAfter=${runs.body.nextCursor}`);
      assert.equal(next.status, 200);
      const one = await admin('GET', `/reconciliations/${runs.body.data[0].runId}`);
      assert.equal(one.status, 200);
      assert.equal((await admin('GET', `/reconciliations/${crypto.randomUUID()}`)).status, 404);
      const events = await admin('GET', '/events?type=reconciliation.completed&limit=100');
      assert.ok(events.body.data.length >= 5, events.text);
      assert.ok(events.body.data.every((e: { data: { runId: string } }) => typeof e.data.runId === 'string'));
      const integratorEvents = await acme.client.get('/v1/events?limit=100');
      assert.ok(!(integratorEvents.body.data as { type: string }[]).some((e) => e.type.startsWith('reconciliation')), 'never an integrator’s event');
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      assert.match(metrics, /reconciliation_open_items\{kind="exceptions"\} \d+/);
    });

    it('the bank’s clearing account in the ledger reads what the statement’s lines add up to', async () => {
      const clearing = await admin('GET', '/ledger/accounts?kind=fiat_clearing');
      assert.equal(clearing.status, 200);
      // 100 + 50 received; 20 paid; 7 paid and returned.
      assert.equal(clearing.body.data[0].balances.posted, '130');
    });

    it('an upgrade: a deployment without a ledger (as before this version) opens from the chain and reconciles from its first day', async () => {
      await server.database.db.execute(sql`truncate ledger_entries, ledger_balance_versions, ledger_transactions, ledger_accounts, ledger_openings`);
      const block = await openLedger({ database: server.database, chainId: 8453, chain: server.chains.get(8453)!, tokens: server.system.tokens.list(8453), treasury: server.treasury!.address, confirmations: 1, now: server.clock.now });
      const wallet = await admin('GET', `/ledger/accounts?kind=customer&accountId=${alice.accountId}&asset=eip155:8453/slip44:60`);
      assert.equal(wallet.body.data[0].balances.postedRaw, String(BigInt(await chain.rpc<string>('eth_getBalance', [alice.walletAddress, `0x${block.toString(16)}`]))), 'the wallet opens with what it held');
      const run = await runChain();
      assert.deepEqual(run.breaks, []);
      assert.equal((await admin('GET', '/ledger/trial-balance')).body.balanced, true);
    });
  });
}

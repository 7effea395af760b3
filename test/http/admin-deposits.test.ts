import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import { backends } from '../harness/backends.js';
import { createCustomer, type Customer } from '../harness/customers.js';
import type { SeededIntegrator } from '../harness/server.js';
import { useTenantsOnChain } from '../harness/tenants.js';

// GET /admin/api/deposits (docs/review.md): every integrator's deposits for operators, newest first, a page at a
// time with a keyset cursor, one status or all. Black-box, on each backend: deposits are made through /v1 and moved
// through the operator API, and the list is read as the console reads it.

interface ListedDeposit {
  transactionId: string;
  status: string;
  chainId: number;
  integratorId: string;
  integratorName: string;
  failureReason?: string;
  deposit: { amount: string; currency: string; reference: string; asset: string; cryptoAmount: string; cryptoAmountRaw: string };
  [key: string]: unknown;
}

interface DepositPage {
  data: ListedDeposit[];
  hasMore: boolean;
  nextCursor: string | null;
}

for (const backend of backends()) {
  describe(`admin API: the deposits list [${backend}]`, () => {
    const { server, tenants: [acme, globex] } = useTenantsOnChain(backend, 8453, ['Acme', 'Globex']);
    let operator: { operatorId: string; token: string };
    /** Oldest first, as created. */
    const made: { reference: string; transactionId: string; who: SeededIntegrator }[] = [];

    const admin = (path: string, init: { method?: string; body?: unknown; token?: string | null } = {}) =>
      adminRequest(server, init.method ?? 'GET', `/admin/api${path}`, { token: init.token === undefined ? operator.token : init.token, body: init.body });
    const list = async (query: string): Promise<DepositPage> => {
      const res = await admin(`/deposits${query}`);
      assert.equal(res.status, 200, res.text);
      return res.body as DepositPage;
    };
    const references = (page: DepositPage) => page.data.map((d) => d.deposit.reference);
    const customers = new Map<SeededIntegrator, Customer>();
    const deposit = async (who: SeededIntegrator, amount: string, currency: 'USD' | 'EUR') => {
      server.clock.advance(1000);
      const res = await who.client.post('/v1/submit/create-deposit', { accountId: customers.get(who)!.accountId, amount, currency, chainId: 8453 });
      assert.equal(res.status, 201, res.text);
      made.push({ reference: res.body.fiatDepositInstructions.reference, transactionId: res.body.transactionId, who });
    };

    before(async () => {
      operator = await createOperator(server.database, 'Alice', server.clock.now());
      customers.set(acme, await createCustomer(server, acme));
      customers.set(globex, await createCustomer(server, globex));
      await deposit(acme, '250.00', 'USD');
      await deposit(globex, '10', 'EUR');
      await deposit(acme, '1.05', 'USD');
    });

    it('is for operators only: no token, a wrong token and an integrator signature are 401', async () => {
      const none = await admin('/deposits', { token: null });
      assert.deepEqual([none.status, none.body.code], [401, 'missing_auth_headers']);
      assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="admin"');
      const wrong = await admin('/deposits', { token: 'op_not-a-real-token' });
      assert.deepEqual([wrong.status, wrong.body.code], [401, 'unknown_credential']);
      const signed = await acme.client.get('/admin/api/deposits');
      assert.equal(signed.status, 401);
    });

    it('lists every integrator’s deposits newest first, each as its detail shows it with the integrator’s name', async () => {
      const res = await admin('/deposits');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const page = res.body as DepositPage;
      assert.deepEqual(references(page), made.map((d) => d.reference).reverse());
      assert.deepEqual([page.hasMore, page.nextCursor], [false, null]);
      assert.deepEqual(
        page.data.map((d) => [d.integratorName, d.integratorId, d.status, d.deposit.amount, d.deposit.currency, d.deposit.asset, d.chainId]),
        [
          ['Acme', acme.integratorId, 'waiting_for_funds', '1.05', 'USD', 'ETH', 8453],
          ['Globex', globex.integratorId, 'waiting_for_funds', '10', 'EUR', 'ETH', 8453],
          ['Acme', acme.integratorId, 'waiting_for_funds', '250.00', 'USD', 'ETH', 8453],
        ],
      );
      // The crypto in the asset's units as well as in base units: 250 USD at 10^12 wei a dollar.
      assert.deepEqual([page.data[2]!.deposit.cryptoAmount, page.data[2]!.deposit.cryptoAmountRaw], ['0.00025', '250000000000000']);
      // The same view as the deposit's own page, less its history.
      const { integratorName, ...listed } = page.data[2]!;
      const { history: _history, ...detail } = (await admin(`/deposits/${made[0]!.reference}`)).body as { history: unknown };
      assert.equal(integratorName, 'Acme');
      assert.deepEqual(listed, detail);
    });

    it('pages with the keyset cursor: limit rows, hasMore and nextCursor, then the rest', async () => {
      const first = await list('?limit=2');
      assert.deepEqual(references(first), [made[2]!.reference, made[1]!.reference]);
      assert.equal(first.hasMore, true);
      assert.match(first.nextCursor ?? '', /^[A-Za-z0-9_-]{22}$/);

      // A deposit made meanwhile goes to the head of the list: the next page is still the one after the first.
      await deposit(globex, '99.99', 'USD');
      const second = await list(`?limit=2&startingAfter=${first.nextCursor}`);
      assert.deepEqual(references(second), [made[0]!.reference]);
      assert.deepEqual([second.hasMore, second.nextCursor], [false, null]);

      const one = await list('?limit=1');
      assert.deepEqual(references(one), [made[3]!.reference]);
      const rest = await list(`?limit=5&startingAfter=${one.nextCursor}`);
      assert.deepEqual([...references(one), ...references(rest)], made.map((d) => d.reference).reverse());
    });

    it('filters by status', async () => {
      const cancelled = made[1]!;
      const cancel = await admin(`/deposits/${cancelled.reference}/cancel`, { method: 'POST', body: { reason: 'no funds within 30 days' } });
      assert.deepEqual([cancel.status, cancel.body.status], [200, 'failed'], cancel.text);

      const failed = await list('?status=failed');
      assert.deepEqual(references(failed), [cancelled.reference]);
      assert.deepEqual([failed.data[0]!.failureReason, failed.data[0]!.integratorName], ['cancelled', 'Globex']);
      assert.deepEqual(references(await list('?status=waiting_for_funds')), [made[3]!.reference, made[2]!.reference, made[0]!.reference]);
      const waiting = await list('?status=waiting_for_funds&limit=2');
      assert.deepEqual([...references(waiting), waiting.hasMore], [made[3]!.reference, made[2]!.reference, true]);
      assert.deepEqual(references(await list(`?status=waiting_for_funds&limit=2&startingAfter=${waiting.nextCursor}`)), [made[0]!.reference], 'the cursor skips the failed one between');
      assert.deepEqual((await list('?status=completed')).data, []);
      assert.deepEqual(references(await list('')), made.map((d) => d.reference).reverse(), 'every status without the filter');
    });

    it('answers a bad query with a 400 problem naming the field', async () => {
      const cases: [string, string][] = [
        ['?status=created', '/status'],
        ['?status=pending', '/status'],
        ['?limit=0', '/limit'],
        ['?limit=101', '/limit'],
        ['?limit=ten', '/limit'],
        ['?startingAfter=nonsense', '/startingAfter'],
        // 22 characters of base64url, but not what the list wrote (its last 4 bits are not zero).
        ['?startingAfter=AZaaaaaaaaaaaaaaaaaaaB', '/startingAfter'],
      ];
      for (const [query, pointer] of cases) {
        const res = await admin(`/deposits${query}`);
        assert.equal(res.status, 400, `${query}: ${res.text}`);
        assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
        assert.equal(res.body.code, 'validation_failed', query);
        assert.deepEqual(
          res.body.errors.map((e: { pointer: string; in?: string }) => [e.pointer, e.in]),
          [[pointer, 'query']],
          `${query}: ${res.text}`,
        );
      }
    });
  });
}

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { bankAccounts, bankAccountTransitions } from '../../src/db/schema/index.js';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import { backends } from '../harness/backends.js';
import { createCustomer, type Customer } from '../harness/customers.js';
import { eventsFor, rowsContaining } from '../harness/db.js';
import { activeEntity } from '../harness/money.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import { ROOT_URL } from '../harness/root.js';

interface BankAccount {
  bankAccountId: string;
  accountId: string;
  currency: string;
  rail: string;
  accountHolderName: string;
  bankName: string | null;
  last4: string;
  routingNumber: string | null;
  accountType: string | null;
  ibanCountry: string | null;
  bic: string | null;
  status: string;
  rejectionReason: string | null;
  removedAt: string | null;
}

const VIEW_KEYS = [
  'accountHolderName', 'accountId', 'accountType', 'address', 'bankAccountId', 'bankName', 'bic', 'createdAt', 'currency', 'ibanCountry',
  'last4', 'rail', 'rejectionReason', 'removedAt', 'routingNumber', 'status', 'updatedAt',
];

const ach = (accountNumber = '000123456789', routingNumber = '021000021') => ({ accountNumber, routingNumber, accountType: 'checking' });

for (const backend of backends()) {
  describe(`bank accounts [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    let globex: SeededIntegrator;
    let alice: Customer;
    let operatorToken: string;

    before(async () => {
      server = await startServer(backend);
      acme = await server.seedIntegrator('Acme');
      globex = await server.seedIntegrator('Globex');
      alice = await createCustomer(server, acme);
      operatorToken = (await createOperator(server.database, 'reviewer', server.clock.now())).token;
    });
    after(async () => server?.close());

    const post = (path: string, body: unknown, who: SeededIntegrator = acme) => {
      server.clock.advance(1000);
      return who.client.post(path, body);
    };
    const create = (body: Record<string, unknown>, who: SeededIntegrator = acme) =>
      post('/v1/submit/create-bank-account', { accountId: alice.accountId, currency: 'USD', accountHolderName: 'Maria Garcia', us: ach(), ...body }, who);
    const rows = async (accountId: string) => server.database.db.select().from(bankAccounts).where(eq(bankAccounts.accountId, accountId));
    const admin = (method: string, path: string, body?: unknown) => adminRequest(server, method, `/admin/api${path}`, { token: operatorToken, body });

    it('USD (ACH): the KYC name matches, so it is verified; only last4 is shown and the number is sealed at rest', async () => {
      server.clock.advance(1000);
      // With an Idempotency-Key, so the stored answer is searched too.
      const res = await acme.client.post(
        '/v1/submit/create-bank-account',
        { accountId: alice.accountId, currency: 'USD', accountHolderName: 'Maria Garcia', us: ach('9876543210'), bankName: 'Chase' },
        { headers: { 'Idempotency-Key': `bank-${randomUUID()}` } },
      );
      assert.equal(res.status, 201, res.text);
      const b: BankAccount = res.body;
      assert.deepEqual(Object.keys(b).sort(), VIEW_KEYS);
      assert.equal(b.status, 'verified');
      assert.equal(b.rail, 'ach');
      assert.equal(b.currency, 'USD');
      assert.equal(b.last4, '3210');
      assert.equal(b.routingNumber, '021000021');
      assert.equal(b.accountType, 'checking');
      assert.equal(b.ibanCountry, null);
      assert.equal(b.bankName, 'Chase');
      assert.ok(!res.text.includes('9876543210'), 'the full number is never returned');
      // docs/bank-accounts.md shows this answer: same fields, same kinds of values.
      const documented = [...readFileSync(new URL('docs/bank-accounts.md', ROOT_URL), 'utf8').matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]!));
      const example = documented.find((d) => 'bankAccountId' in d);
      assert.deepEqual(Object.keys(example).sort(), VIEW_KEYS);
      for (const key of VIEW_KEYS) if (!key.endsWith('Id')) assert.equal(typeof example[key], typeof (b as unknown as Record<string, unknown>)[key], key);
      const [row] = (await rows(alice.accountId)).filter((r) => r.id === b.bankAccountId);
      assert.ok(row);
      assert.deepEqual(await rowsContaining(server.database, '9876543210'), [], 'no row of any table holds the number in clear');
      const events = await eventsFor(server.database, b.bankAccountId);
      assert.deepEqual(events.map((e) => e.type), ['bank_account.created']);
      assert.deepEqual((events[0]!.data as { object: unknown }).object, b);
    });

    it('compares the holder name regardless of case, accents, punctuation and word order; any other name waits for review', async () => {
      for (const [name, status, number] of [
        ['GARCÍA, maria', 'verified', '1111000001'],
        ['Maria Elena Garcia', 'verified', '1111000002'],
        ['Mario Garcia', 'pending_review', '1111000003'],
      ] as const) {
        const res = await create({ accountHolderName: name, us: ach(number) });
        assert.equal(res.status, 201, res.text);
        assert.equal(res.body.status, status, name);
      }
    });

    it('EUR (SEPA): an IBAN with spaces and a lower-case BIC are stored in electronic form', async () => {
      const res = await create({ currency: 'EUR', us: undefined, iban: { iban: 'de89 3704 0044 0532 0130 00', bic: 'deutdeff' } });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.rail, 'sepa');
      assert.equal(res.body.last4, '3000');
      assert.equal(res.body.ibanCountry, 'DE');
      assert.equal(res.body.bic, 'DEUTDEFF');
      assert.equal(res.body.routingNumber, null);
      assert.ok(!res.text.includes('370400440532013000'));
      // The same IBAN written another way is the same account.
      const again = await create({ currency: 'EUR', us: undefined, iban: { iban: 'DE89370400440532013000' } });
      assert.equal(again.status, 409, again.text);
      assert.equal(again.body.code, 'bank_account_exists');
    });

    it('refuses bad details with a 400 naming each field, and writes nothing', async () => {
      const before = (await rows(alice.accountId)).length;
      const cases: [Record<string, unknown>, string, string][] = [
        [{ us: ach('123') }, '/us/accountNumber', 'invalid_account_number'],
        [{ us: ach('12345678901234567890') }, '/us/accountNumber', 'invalid_account_number'],
        [{ us: ach(undefined, '021000022') }, '/us/routingNumber', 'invalid_routing_number'],
        [{ us: ach(undefined, '991000025') }, '/us/routingNumber', 'invalid_routing_number'],
        [{ currency: 'EUR', us: undefined, iban: { iban: 'DE89370400440532013001' } }, '/iban/iban', 'invalid_iban_checksum'],
        [{ currency: 'EUR', us: undefined, iban: { iban: 'DE8937040044053201300' } }, '/iban/iban', 'invalid_iban_length'],
        [{ currency: 'EUR', us: undefined, iban: { iban: 'BR1800360305000010009795493C1' } }, '/iban/iban', 'iban_not_sepa'],
        [{ currency: 'EUR', us: undefined, iban: { iban: 'DE89370400440532013000', bic: 'DEUT1EFF' } }, '/iban/bic', 'invalid_bic'],
        [{ currency: 'EUR' }, '/us', 'not_allowed'],
        [{ us: undefined }, '/us', 'required'],
        [{ accountHolderName: 'M' }, '/accountHolderName', 'invalid_length'],
        [{ accountHolderName: '   ' }, '/accountHolderName', 'required'],
        [{ address: { streetLine1: '1 Main St', city: 'Springfield', postalCode: 'ABC', country: 'USA', state: 'US-IL' } }, '/address/postalCode', 'invalid_postal_code'],
      ];
      for (const [body, pointer, code] of cases) {
        const res = await create(body);
        assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
        assert.equal(res.body.code, 'validation_failed');
        assert.ok(
          res.body.errors.some((e: { pointer: string; code: string }) => e.pointer === pointer && e.code === code),
          `${pointer} ${code} in ${res.text}`,
        );
      }
      const both = await create({ iban: { iban: 'DE89370400440532013000' } });
      assert.equal(both.status, 400);
      // Exactly one of us and iban (a oneOf in the document): both given names each.
      assert.deepEqual(both.body.errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`), ['/us not_allowed', '/iban not_allowed']);
      assert.equal((await rows(alice.accountId)).length, before, 'nothing written');
    });

    it('only an active account may add one; the same number twice is 409; at most 10 live ones', async () => {
      const pending = await createCustomer(server, acme, { approve: false });
      const inactive = await create({ accountId: pending.accountId });
      assert.equal(inactive.status, 409, inactive.text);
      assert.equal(inactive.body.code, 'account_not_active');

      const bob = await createCustomer(server, acme);
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await create({ accountId: bob.accountId, us: ach(`5550000${i}`) });
        assert.equal(res.status, 201, res.text);
        ids.push(res.body.bankAccountId);
      }
      const eleventh = await create({ accountId: bob.accountId, us: ach('55500010') });
      assert.equal(eleventh.status, 409, eleventh.text);
      assert.equal(eleventh.body.code, 'bank_account_limit_reached');
      const dup = await create({ accountId: bob.accountId, us: ach('55500003') });
      assert.equal(dup.body.code, 'bank_account_exists', 'checked before the limit');
      // Another routing number is another account.
      assert.equal((await create({ accountId: alice.accountId, us: ach('55500003', '011000015') })).status, 201);

      // Removing frees a place and the number.
      const removed = await post('/v1/submit/remove-bank-account', { bankAccountId: ids[3] });
      assert.equal(removed.status, 200, removed.text);
      assert.equal(removed.body.status, 'removed');
      assert.ok(removed.body.removedAt);
      assert.equal((await post('/v1/submit/remove-bank-account', { bankAccountId: ids[3] })).body.code, 'bank_account_removed');
      const readded = await create({ accountId: bob.accountId, us: ach('55500003') });
      assert.equal(readded.status, 201, readded.text);

      // list: live ones only, oldest first, paginated; get: removed ones too.
      const page1 = await acme.client.get(`/v1/query/list-bank-accounts?accountId=${bob.accountId}&limit=6`);
      assert.equal(page1.status, 200, page1.text);
      assert.equal(page1.body.data.length, 6);
      assert.equal(page1.body.hasMore, true);
      const page2 = await acme.client.get(`/v1/query/list-bank-accounts?accountId=${bob.accountId}&limit=6&startingAfter=${page1.body.data[5].bankAccountId}`);
      assert.equal(page2.body.data.length, 4);
      assert.equal(page2.body.hasMore, false);
      const listed = [...page1.body.data, ...page2.body.data].map((b: BankAccount) => b.bankAccountId);
      assert.deepEqual(listed, [...ids.filter((_, i) => i !== 3), readded.body.bankAccountId]);
      const gone = await acme.client.get(`/v1/query/get-bank-account?bankAccountId=${ids[3]}`);
      assert.equal(gone.status, 200);
      assert.equal(gone.body.status, 'removed');
      const types = (await eventsFor(server.database, ids[3]!)).map((e) => e.type);
      assert.deepEqual(types, ['bank_account.created', 'bank_account.removed']);
    });

    it('another integrator’s bank account answers exactly like a missing one, on every operation', async () => {
      const mine = await create({ us: ach('7770001') });
      assert.equal(mine.status, 201);
      const id = mine.body.bankAccountId;
      const probes = async (bankAccountId: string, accountId: string) => [
        await globex.client.get(`/v1/query/get-bank-account?bankAccountId=${bankAccountId}`),
        await globex.client.get(`/v1/query/list-bank-accounts?accountId=${accountId}`),
        await post('/v1/submit/remove-bank-account', { bankAccountId }, globex),
        await post('/v1/sandbox/simulate-bank-account-review', { bankAccountId, outcome: 'approve' }, globex),
        await post('/v1/submit/create-bank-account', { accountId, currency: 'USD', accountHolderName: 'Maria Garcia', us: ach('7770002') }, globex),
      ];
      const theirs = await probes(id, alice.accountId);
      const missing = await probes(randomUUID(), randomUUID());
      for (const [i, res] of theirs.entries()) {
        assert.equal(res.status, 404, res.text);
        assert.deepEqual({ ...res.body, instance: undefined, requestId: undefined }, { ...missing[i]!.body, instance: undefined, requestId: undefined });
      }
      assert.equal((await acme.client.get(`/v1/query/get-bank-account?bankAccountId=${id}`)).body.status, 'verified', 'unchanged');
    });

    it('sandbox review: approve or reject a pending one; a decided one is 409', async () => {
      const a = await create({ accountHolderName: 'Someone Else', us: ach('8880001') });
      const b = await create({ accountHolderName: 'Someone Else', us: ach('8880002') });
      assert.equal(a.body.status, 'pending_review');
      const approved = await post('/v1/sandbox/simulate-bank-account-review', { bankAccountId: a.body.bankAccountId, outcome: 'approve' });
      assert.equal(approved.status, 200, approved.text);
      assert.equal(approved.body.status, 'verified');
      const rejected = await post('/v1/sandbox/simulate-bank-account-review', { bankAccountId: b.body.bankAccountId, outcome: 'reject' });
      assert.equal(rejected.body.status, 'rejected');
      assert.ok(rejected.body.rejectionReason);
      const again = await post('/v1/sandbox/simulate-bank-account-review', { bankAccountId: a.body.bankAccountId, outcome: 'reject' });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'bank_account_not_pending');
      const events = await eventsFor(server.database, a.body.bankAccountId);
      assert.deepEqual(events.map((e) => e.type), ['bank_account.created', 'bank_account.status_changed']);
      assert.deepEqual((events[1]!.data as { previousAttributes: unknown }).previousAttributes, { status: 'pending_review' });
    });

    it('operators: the queue, the case with the names compared, a decision audited with its reason', async () => {
      const res = await create({ accountHolderName: 'M. Garcia Holdings', us: ach('9990001') });
      const id = res.body.bankAccountId;
      const queue = await admin('GET', '/bank-accounts');
      assert.equal(queue.status, 200, queue.text);
      const item = queue.body.data.find((c: { bankAccountId: string }) => c.bankAccountId === id);
      assert.ok(item, 'in the queue');
      assert.equal(item.integratorId, acme.integratorId);
      assert.equal(item.integratorName, 'Acme');
      assert.deepEqual(item.expectedHolderNames, ['Maria Garcia', 'Maria Elena Garcia']);

      const noReason = await admin('POST', `/bank-accounts/${id}/decisions`, { outcome: 'reject' });
      assert.equal(noReason.status, 400, noReason.text);
      assert.equal(noReason.body.errors[0].pointer, '/reason');
      const decided = await admin('POST', `/bank-accounts/${id}/decisions`, { outcome: 'reject', reason: 'holder is a company, not the customer' });
      assert.equal(decided.status, 200, decided.text);
      assert.equal(decided.body.status, 'rejected');
      assert.equal(decided.body.rejectionReason, 'holder is a company, not the customer');
      assert.equal((await admin('POST', `/bank-accounts/${id}/decisions`, { outcome: 'approve' })).body.code, 'bank_account_not_pending');

      const found = await admin('GET', `/bank-accounts/${id}`);
      assert.deepEqual(
        found.body.history.map((h: { toStatus: string; actorType: string; reason: string | null }) => [h.toStatus, h.actorType, h.reason]),
        [['pending_review', 'integrator', 'holder name differs: review needed'], ['rejected', 'operator', 'holder is a company, not the customer']],
      );
      const audit = await server.database.db.select().from(bankAccountTransitions).where(eq(bankAccountTransitions.bankAccountId, id));
      assert.equal(audit.length, 2);
      assert.equal((await admin('GET', `/bank-accounts/${randomUUID()}`)).status, 404);
      assert.equal((await adminRequest(server, 'GET', '/admin/api/bank-accounts', {})).status, 401, 'operators only');
    });

    it('entity accounts: the holder is compared with the legal and trade names', async () => {
      const entityAccountId = await activeEntity(server, acme);
      const legal = await create({ accountId: entityAccountId, accountHolderName: 'ACME ROBOTICS, INC', us: ach('4440001') });
      assert.equal(legal.body.status, 'verified', legal.text);
      const trade = await create({ accountId: entityAccountId, accountHolderName: 'acme', currency: 'EUR', us: undefined, iban: { iban: 'NL91ABNA0417164300' } });
      assert.equal(trade.body.status, 'verified', trade.text);
      const person = await create({ accountId: entityAccountId, accountHolderName: 'Jonas Becker', us: ach('4440002') });
      assert.equal(person.body.status, 'pending_review', 'a director is not the company');
    });
  });
}

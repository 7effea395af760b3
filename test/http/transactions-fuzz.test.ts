import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, signedBody, unsignedTransfer, type Customer } from '../harness/customers.js';
import { useTenantsOnChain } from '../harness/tenants.js';

// Hostile input on the transaction, OTP and deposit operations: a valid body with one member replaced by anything
// (or removed, or an unknown one added) is never a 5xx, always a problem naming what is wrong, and a refused request
// writes nothing.

type Json = Record<string, unknown>;

/** Every path to a member of a JSON object (nested objects included). */
function memberPaths(value: Json, prefix: string[] = []): string[][] {
  return Object.entries(value).flatMap(([key, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) ? [[...prefix, key], ...memberPaths(v as Json, [...prefix, key])] : [[...prefix, key]],
  );
}

function mutate(base: Json, path: string[], change: { kind: 'replace'; value: unknown } | { kind: 'remove' } | { kind: 'add'; name: string }): Json {
  const copy = structuredClone(base);
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Json;
  const last = path[path.length - 1]!;
  if (change.kind === 'replace') target[last] = change.value;
  else if (change.kind === 'remove') delete target[last];
  else target[`${change.name}_x`] = 1;
  return copy;
}

for (const backend of backends()) {
  describe(`hostile input on transactions, OTP and deposits [${backend}]`, () => {
    const { server, chain: base, tenants: [acme] } = useTenantsOnChain(backend, 8453, ['Acme'], { OTP_RESEND_SECONDS: '0', OTP_MAX_PER_HOUR: '1000' });
    let alice: Customer;
    let depositId: string;

    before(async () => {
      alice = await createCustomer(server, acme);
      await base.setBalance(alice.walletAddress, ETH);
      server.clock.advance(1000);
      depositId = (await acme.client.post('/v1/submit/create-deposit', { accountId: alice.accountId, amount: '1.00', currency: 'USD', chainId: 8453 })).body.transactionId;
    });

    /** Rows a refused request must not have added. */
    const counts = async () => {
      const result = await server.database.db.execute<{ n: number }>(sql`
        select (select count(*) from transactions) + (select count(*) from otp_codes) + (select count(*) from otp_approval_tokens)
             + (select count(*) from events) + (select count(*) from used_stamp_challenges) as n`);
      return Number((result as unknown as { rows: { n: number }[] }).rows[0]!.n);
    };

    const operations: { path: string; base: () => Json }[] = [
      { path: '/v1/otp/init', base: () => ({ userId: alice.userId, channel: 'email' }) },
      { path: '/v1/otp/verify', base: () => ({ userId: alice.userId, code: '000000' }) },
      { path: '/v1/submit/create-deposit', base: () => ({ accountId: alice.accountId, amount: '2.50', currency: 'EUR', chainId: 8453 }) },
      { path: '/v1/sandbox/simulate-deposit', base: () => ({ transactionId: depositId, amount: '1.00' }) },
      {
        path: '/v1/submit/send-transaction-otp?chain_id=8453',
        base: () => ({ transactionId: randomUUID(), signedBody: signedBody(server, alice, unsignedTransfer(8453, 0)), approvalToken: `otpa_${'A'.repeat(43)}` }),
      },
      {
        path: '/v1/submit/send-transaction-passkey?chain_id=8453',
        base: () => ({ transactionId: randomUUID(), signedBody: signedBody(server, alice, unsignedTransfer(8453, 0)), webAuthnStamp: '{}' }),
      },
    ];

    it('never a 5xx, always a problem, and nothing written when refused', async () => {
      const change = fc.oneof(
        fc.record({ kind: fc.constant('replace' as const), value: fc.oneof(fc.anything(), fc.string(), fc.integer(), fc.constant(null), fc.constant('\u0000'), fc.constant('9'.repeat(400))) }),
        fc.record({ kind: fc.constant('remove' as const) }),
        fc.record({ kind: fc.constant('add' as const), name: fc.constantFrom('extra', '__proto__', 'constructor') }),
      );
      await fc.assert(
        fc.asyncProperty(fc.nat(), fc.nat(), change, async (whichOperation, whichMember, how) => {
          const operation = operations[whichOperation % operations.length]!;
          const valid = operation.base();
          const paths = memberPaths(valid);
          const body = mutate(valid, paths[whichMember % paths.length]!, how);
          const before = await counts();
          server.clock.advance(1000);
          const res = await acme.client.post(operation.path, body);
          const what = `${operation.path} ${JSON.stringify(body).slice(0, 300)} -> ${res.status} ${res.text.slice(0, 300)}`;
          assert.ok(res.status < 500, what);
          if (res.status >= 400) {
            assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/problem+json', what);
            assert.equal(typeof res.body.code, 'string', what);
            if (res.status === 400) assert.ok(Array.isArray(res.body.errors) && res.body.errors.length > 0, `a 400 names the field: ${what}`);
            // A wrong OTP guess is counted, by design (docs/otp.md); everything else refused writes nothing.
            if (res.body.code !== 'otp_invalid') assert.equal(await counts(), before, `nothing written: ${what}`);
          }
        }),
        { numRuns: 120 },
      );
    });
  });
}

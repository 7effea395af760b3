import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import { backends } from '../harness/backends.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { useTenants } from '../harness/tenants.js';
import type { FieldError, Problem } from '../harness/types.js';

// The inputs a security review found answering 500 (NUL in a text filter, year-0000 dates, huge integers, garbage
// cursors, urn:uuid ids): each is a 400 validation_failed naming the field and its part. The generic search for
// their kin is operations-fuzz.test.ts; these are the named cases, kept as examples.

const b64 = (s: string) => Buffer.from(s).toString('base64url');

function assertNames(res: { status: number; text: string; body?: Problem }, pointer: string, where: 'query' | 'body' | 'path', code?: string): void {
  assert.equal(res.status, 400, res.text);
  assert.ok(res.body, res.text);
  assert.equal(res.body.code, 'validation_failed', res.text);
  const hit = (res.body.errors as FieldError[]).find((e) => e.pointer === pointer && e.in === where);
  assert.ok(hit, `names ${where} ${pointer}: ${res.text}`);
  if (code) assert.equal(hit.code, code, res.text);
}

for (const backend of backends()) {
  describe(`hostile parameters are 400s naming the field [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme'], { WEBHOOK_WORKER: '0', WEBHOOK_ALLOW_PRIVATE: '1' });
    let token: string;
    let subscriptionId: string;

    before(async () => {
      token = (await createOperator(server.database, 'Alice', server.clock.now())).token;
      const subscription = await acme.client.post('/v1/webhooks/subscriptions', { name: 'h', url: 'http://127.0.0.1:9/hook', eventTypes: '*' });
      assert.equal(subscription.status, 201, subscription.text);
      subscriptionId = subscription.body.subscription.id;
    });

    const admin = (path: string) => adminRequest(server, 'GET', path, { token });

    it('NUL in any query or path value, including a text filter', async () => {
      assertNames(await acme.client.get('/v1/events?objectId=%00'), '/objectId', 'query', 'invalid_characters');
      assertNames(await acme.client.get('/v1/events?type=user%00'), '/type', 'query', 'invalid_characters');
      assertNames(await acme.client.get('/v1/events?objectId=a&objectId=%00'), '/objectId', 'query');
      assertNames(await acme.client.get('/v1/events/%00'), '/eventId', 'path', 'invalid_characters');
      assertNames(await admin('/admin/api/reviews?startingAfter=%00'), '/startingAfter', 'query', 'invalid_characters');
    });

    it('dates outside years 0001-9999, in query and body, on both documents', async () => {
      for (const bad of ['0000-01-01T00:00:00Z', '10000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '2016-12-31T23:59:60Z']) {
        assertNames(await acme.client.get(`/v1/events?createdGte=${encodeURIComponent(bad)}`), '/createdGte', 'query', 'invalid_format');
        server.clock.advance(1000);
        assertNames(await acme.client.post(`/v1/webhooks/subscriptions/${subscriptionId}/recover`, { since: bad }), '/since', 'body', 'invalid_format');
        server.clock.advance(1000);
        const user = await acme.client.post('/v1/submit/create-user', { userInfo: californian({ email: 'y0@example.com' }), serviceTermsSignedAt: bad });
        assertNames(user, '/serviceTermsSignedAt', 'body', 'invalid_format');
      }
      // The edges themselves are fine.
      assert.equal((await acme.client.get('/v1/events?createdGte=0001-01-01T00:00:00Z&createdLt=9999-12-31T23:59:59.999Z')).status, 200);
    });

    it('integers beyond their bounds, floats and NaN-like text in query parameters', async () => {
      for (const bad of ['99999999999999999999', '-1', '1.5', 'NaN', 'Infinity', '0']) {
        assertNames(await acme.client.get(`/v1/events?limit=${bad}`), '/limit', 'query');
        assertNames(await admin(`/admin/api/reviews?limit=${bad}`), '/limit', 'query');
      }
      for (const bad of ['99999999999999999999', '3155760001', '-1', '1.5']) assertNames(await admin(`/admin/api/reviews?olderThanSeconds=${bad}`), '/olderThanSeconds', 'query');
      assertNames(await acme.client.get(`/v1/sandbox/otp-outbox?userId=${subscriptionId}&limit=99999999999999999999`), '/limit', 'query', 'out_of_range');
      server.clock.advance(1000);
      const deposit = await acme.client.request('POST', '/v1/submit/create-deposit', {
        rawBody: `{"accountId":"${subscriptionId}","amount":"1.00","currency":"USD","chainId":99999999999999999999}`,
      });
      assertNames(deposit, '/chainId', 'body', 'out_of_range');
    });

    it('malformed cursors and ids', async () => {
      const uuid = '01890000-0000-7000-8000-000000000000';
      for (const bad of [
        'not-a-cursor!',
        b64('x|y'),
        b64('2020-01-01T00:00:00.000Z|------------------------------------'),
        b64(`0000-01-01T00:00:00.000Z|${uuid}`),
        b64(`2020-02-30T00:00:00.000Z|${uuid}`),
        b64(`Jan 1 2020|${uuid}`),
        b64(`2020-01-01T00:00:00.000Z|${uuid}|x`),
      ]) {
        assertNames(await admin(`/admin/api/reviews?startingAfter=${encodeURIComponent(bad)}`), '/startingAfter', 'query');
      }
      for (const bad of ['garbage', `urn:uuid:${uuid}`, `{${uuid}}`, uuid.replace(/-/g, '')]) {
        assertNames(await acme.client.get(`/v1/events?startingAfter=${encodeURIComponent(bad)}`), '/startingAfter', 'query', 'invalid_format');
        assertNames(await acme.client.get(`/v1/webhooks/subscriptions/${encodeURIComponent(bad)}`), '/subscriptionId', 'path', 'invalid_format');
      }
    });

    it('long path parameters: named by their schema up to the router limit, a path problem beyond it', async () => {
      const long = 'a'.repeat(1500);
      assertNames(await acme.client.get(`/v1/webhooks/subscriptions/${long}`), '/subscriptionId', 'path');
      const tooLong = await acme.client.get(`/v1/webhooks/subscriptions/${'a'.repeat(3000)}`);
      assert.equal(tooLong.status, 400, tooLong.text);
      assert.deepEqual(tooLong.body.errors.map((e: { in: string; code: string }) => [e.in, e.code]), [['path', 'too_long']]);
    });

    it('a cursor from the queue still pages', async () => {
      for (let i = 0; i < 2; i++) {
        server.clock.advance(1000);
        const created = await acme.client.post('/v1/submit/create-individual-account', {
          userInfo: californian({ email: `cursor${i}@example.com` }),
          serviceTermsSignedAt: signedAt(),
          verificationDocuments: personDocs(),
        });
        assert.equal(created.status, 201, created.text);
      }
      const first = await admin('/admin/api/reviews?limit=1');
      assert.equal(first.status, 200, first.text);
      assert.ok(first.body.nextCursor);
      const second = await admin(`/admin/api/reviews?limit=1&startingAfter=${first.body.nextCursor}`);
      assert.equal(second.status, 200, second.text);
      assert.notEqual(second.body.data[0].subjectId, first.body.data[0].subjectId);
    });
  });
}

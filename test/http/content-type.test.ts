import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { createOperator } from '../../src/domain/operators/operators.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { ownerInvitation, ownerlessEntity } from '../harness/invitations.js';
import { useTenants } from '../harness/tenants.js';
import type { Problem } from '../harness/types.js';

/*
 * Content-Type with parameters (issue 33, item 5): stock clients send `application/json; charset=utf-8` (.NET's
 * StringContent, Java clients, older axios). Every part of the server that takes a body (the signed API, the operator
 * API, the hosted invitation page) accepts every RFC 9110 spelling of JSON in UTF-8, and refuses another charset
 * with a 415 naming it and the header.
 */

const ACCEPTED = [
  'application/json',
  'APPLICATION/JSON',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json ; charset="utf-8"',
  'Application/Json;Charset=Utf-8',
  'application/json;\tcharset=utf8',
  'application/merge-patch+json; charset=utf-8',
];
const REFUSED = ['application/json; charset=latin1', 'application/json; charset="ISO-8859-1"', 'text/plain', 'application/jsonx', 'application/json, text/plain'];

/** A deposit reference of the right form that names no deposit. */
const unknownDeposit = () => `DEP-${randomBytes(6).toString('hex').toUpperCase()}`;

function assertRefused(res: { status: number; text: string; body: unknown }, contentType: string) {
  assert.equal(res.status, 415, `${contentType}: ${res.text}`);
  const problem = res.body as Problem & { errors: { pointer: string; in: string; code: string; detail: string }[] };
  assert.equal(problem.code, 'unsupported_media_type');
  assert.deepEqual([problem.errors[0]!.pointer, problem.errors[0]!.in], ['/content-type', 'header'], res.text);
  const charset = /charset="?([^";]+)/.exec(contentType)?.[1];
  if (charset) {
    assert.ok(problem.detail.includes(`charset ${charset}`), problem.detail);
    assert.ok(problem.errors[0]!.detail.includes(charset), res.text);
  }
}

for (const backend of backends()) {
  describe(`Content-Type with parameters, on every part of the server that takes a body [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);
    let token: string;

    before(async () => {
      token = (await createOperator(server.database, 'Reviewer', server.clock.now())).token;
    });

    it('the signed API: every spelling of UTF-8 JSON creates a credential (the signature covers the body, not the header); another charset or type is a 415 naming it', async () => {
      for (const contentType of ACCEPTED) {
        server.clock.advance(1000);
        const res = await acme.client.request('POST', '/v1/integrator/credentials', { rawBody: JSON.stringify({ label: contentType.slice(0, 40), scope: 'read_only' }), headers: { 'content-type': contentType } });
        assert.equal(res.status, 201, `${contentType}: ${res.text}`);
        assert.equal(res.body.credential.label, contentType.slice(0, 40));
      }
      const before = (await acme.client.get('/v1/integrator/credentials')).body.credentials.length;
      for (const contentType of REFUSED) {
        server.clock.advance(1000);
        assertRefused(await acme.client.request('POST', '/v1/integrator/credentials', { rawBody: JSON.stringify({ label: 'refused', scope: 'read_only' }), headers: { 'content-type': contentType } }), contentType);
      }
      assert.equal((await acme.client.get('/v1/integrator/credentials')).body.credentials.length, before, 'nothing created when refused');
    });

    it('a body without a Content-Type is a 415 saying it is required; a bodiless request needs none', async () => {
      server.clock.advance(1000);
      const res = await fetch(`${server.url}/admin/api/deposits/${unknownDeposit()}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: new Blob(['{"reason":"x"}']) });
      const problem = (await res.json()) as Problem & { errors: { pointer: string; code: string }[] };
      assert.deepEqual([res.status, problem.code, problem.errors[0]!.pointer, problem.errors[0]!.code], [415, 'unsupported_media_type', '/content-type', 'required']);
      const bodiless = await fetch(`${server.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(bodiless.status, 200);
    });

    it('the operator API: accepted spellings reach the route (an unknown deposit, 404); refused ones are a 415', async () => {
      const send = (contentType: string) =>
        fetch(`${server.url}/admin/api/deposits/${unknownDeposit()}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body: JSON.stringify({ reason: 'test' }) });
      for (const contentType of ACCEPTED) {
        const res = await send(contentType);
        assert.equal(res.status, 404, `${contentType}: ${await res.text()}`);
      }
      for (const contentType of REFUSED) {
        const res = await send(contentType);
        const text = await res.text();
        assertRefused({ status: res.status, text, body: JSON.parse(text) }, contentType);
      }
    });

    it('the hosted invitation page: accepted spellings reach the passkey check (400 at the challenge); refused ones are a 415', async () => {
      const { accountId } = await ownerlessEntity(server, acme);
      const invitation = await ownerInvitation(server, acme, accountId);
      const send = (contentType: string) =>
        fetch(`${server.url}/invitations/${invitation.token}/accept`, {
          method: 'POST',
          headers: { 'content-type': contentType },
          body: JSON.stringify({ firstName: 'Ada', lastName: 'Lovelace', acceptTerms: true, authenticator: new SoftwareAuthenticator().authenticator() }),
        });
      for (const contentType of ACCEPTED) {
        const res = await send(contentType);
        const body = (await res.json()) as Problem & { errors: { pointer: string }[] };
        assert.deepEqual([res.status, body.errors?.[0]?.pointer], [400, '/authenticator/challenge'], `${contentType}: ${JSON.stringify(body)}`);
      }
      for (const contentType of REFUSED) {
        const res = await send(contentType);
        const text = await res.text();
        assertRefused({ status: res.status, text, body: JSON.parse(text) }, contentType);
      }
    });
  });
}

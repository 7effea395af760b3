import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serializeTransaction, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { eq } from 'drizzle-orm';
import { accounts, wallets } from '../../src/db/schema/index.js';
import { ALL_EVENT_TYPES, EVENT_TYPES } from '../../src/domain/events/catalogue.js';
import { eventSchemaName } from '../../src/http/schemas/events.js';
import { eventually } from '../harness/eventually.js';
import { openApiChecker, type OpenApiDoc } from '../harness/openapi.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { berliner, californian, companyInfo, entityDocs, personDocs, signedAt } from '../harness/fixtures.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import { unsignedTransfer } from '../harness/customers.js';
import { asMember, seatMember, teamAccount } from '../harness/members.js';
import { inviteeInfo, ownerInvitation, ownerlessEntity } from '../harness/invitations.js';
import { ROOT_URL } from '../harness/root.js';

const DOC = new URL('docs/event-types.md', ROOT_URL);

/** Keys of an object, recursively for nested plain objects (arrays count as leaves). */
function shape(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return typeof value === 'object' && value !== null ? 'array' : 'leaf';
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, shape((value as Record<string, unknown>)[k])]),
  );
}

function render(examples: Map<string, unknown>): string {
  const lines = [
    '# Event types',
    '',
    'Every event type the service emits, with a real payload of each (recorded by `test/http/event-catalogue.test.ts`;',
    'regenerate with `UPDATE_DOCS=1 npm test -- event-catalogue`). The envelope is described in [webhooks.md](webhooks.md).',
    'Subscriptions name these types, prefix wildcards such as `user.*`, or `*`.',
    '',
    '| Type | When |',
    '|---|---|',
    ...ALL_EVENT_TYPES.map((t) => `| [\`${t}\`](#${t.replace(/[._]/g, '')}) | ${EVENT_TYPES[t]} |`),
    '',
  ];
  for (const t of ALL_EVENT_TYPES) {
    lines.push(`## ${t}`, '', EVENT_TYPES[t], '', '```json', JSON.stringify(examples.get(t), null, 2), '```', '');
  }
  return lines.join('\n');
}

/** The documented example of each type: the JSON block under its heading. */
function documented(text: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const m of text.matchAll(/^## ([a-z_.]+)\n[\s\S]*?```json\n([\s\S]*?)\n```/gm)) out.set(m[1]!, JSON.parse(m[2]!));
  return out;
}

// One backend is enough: the payloads are the API's, not the database's.
describe('event catalogue', () => {
  let server: TestServer;
  let acme: SeededIntegrator;
  let receiver: http.Server;
  let anvil: Anvil;
  const examples = new Map<string, unknown>();
  const emitted: { type: string }[] = [];

  before(async () => {
    anvil = await startAnvil(8453);
    server = await startServer('pglite', { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '0', CHAIN_RPC_URLS: `8453=${anvil.url}` });
    // Answers 410 so the subscription pointed at it gets disabled.
    receiver = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(410).end('gone')));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await server.close();
    receiver.close();
    await anvil?.stop();
  });

  const step = async <T>(f: () => Promise<T>): Promise<T> => {
    server.clock.advance(1000);
    return f();
  };

  it('emits every catalogued type through real operations, and nothing uncatalogued', async () => {
    acme = await server.seedIntegrator('Acme');
    const c = acme.client;
    const ok = (r: { status: number; text: string }, status = 200) => assert.equal(r.status, status, r.text);

    const cred = await step(() => c.post('/v1/integrator/credentials', { label: 'ci', scope: 'read_only' }));
    ok(cred, 201);
    ok(await step(() => c.patch(`/v1/integrator/credentials/${cred.body.credential.publicKey}`, { label: 'ci-2' })));
    ok(await step(() => c.delete(`/v1/integrator/credentials/${cred.body.credential.publicKey}`)), 204);

    const user = await step(() => c.post('/v1/submit/create-individual-account', { userInfo: californian(), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs() }));
    ok(user, 201);
    ok(await step(() => c.patch('/v1/submit/update-user', { userId: user.body.userId, userInfo: { phone: '+14155550123' } })));
    ok(await step(() => c.post('/v1/sandbox/simulate-verification', { accountId: user.body.accountId, outcome: 'approve' })));
    // The active user's new name is on the sample list: a case opens for an operator, the user stays active.
    ok(await step(() => c.patch('/v1/submit/update-user', { userId: user.body.userId, userInfo: { firstName: 'Maria', middleName: 'Fernanda', lastName: 'Sanctioned', birthDate: '1975-03-02' } })));

    const entity = await step(() => c.post('/v1/submit/create-entity-account', { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() }));
    ok(entity, 201);
    ok(await step(() => c.patch('/v1/submit/update-entity-account', { accountId: entity.body.accountId, entityInfo: { businessTradeName: 'Acme Two' } })));
    // An entity account from before entities had wallets (arranged in the database) gets its wallet.
    const legacy = await step(() => c.post('/v1/submit/create-entity-account', { entityInfo: companyInfo({ businessLegalName: 'Legacy Ltd' }), serviceTermsSignedAt: signedAt() }));
    ok(legacy, 201);
    await server.database.db.delete(wallets).where(eq(wallets.accountId, legacy.body.accountId));
    await server.database.db.update(accounts).set({ walletAddress: null, custody: null, organizationId: null, requiredApprovals: null }).where(eq(accounts.id, legacy.body.accountId));
    ok(await step(() => c.post('/v1/submit/create-entity-wallet', { accountId: legacy.body.accountId })), 201);
    const rep = await step(() =>
      c.post('/v1/submit/create-associated-person', {
        accountId: entity.body.accountId,
        userInfo: berliner({ email: 'rep@example.de' }),
        beneficiaryDetails: { beneficiaryType: ['representative'], title: 'Director' },
        verificationDocuments: personDocs('DEU'),
      }),
    );
    ok(rep, 201);
    ok(await step(() => c.patch('/v1/submit/update-associated-person', { beneficiaryId: rep.body.beneficiaryId, beneficiaryDetails: { title: 'CEO' } })));
    ok(await step(() => c.post('/v1/sandbox/simulate-verification', { beneficiaryId: rep.body.beneficiaryId, outcome: 'approve' })));
    const temp = await step(() =>
      c.post('/v1/submit/create-associated-person', {
        accountId: entity.body.accountId,
        userInfo: berliner({ email: 'temp@example.de' }),
        beneficiaryDetails: { beneficiaryType: ['representative'], title: 'Temp' },
      }),
    );
    ok(temp, 201);
    ok(await step(() => c.post('/v1/submit/remove-associated-person', { beneficiaryId: temp.body.beneficiaryId })));

    // Transactions: one completes, one reverts (a contract that always reverts).
    const passkey = new SoftwareAuthenticator();
    const payer = await step(() =>
      c.post('/v1/submit/create-individual-account', {
        userInfo: californian({ email: 'payer@example.com' }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: personDocs(),
        authenticators: [passkey.authenticator()],
      }),
    );
    ok(payer, 201);
    ok(await step(() => c.post('/v1/sandbox/simulate-verification', { accountId: payer.body.accountId, outcome: 'approve' })));
    await anvil.setBalance(payer.body.walletAddress, 10n ** 18n);
    const bank = await step(() => c.post('/v1/submit/create-bank-account', { accountId: payer.body.accountId, currency: 'EUR', accountHolderName: 'Garcia Holdings', iban: { iban: 'DE89 3704 0044 0532 0130 00' } }));
    ok(bank, 201);
    ok(await step(() => c.post('/v1/sandbox/simulate-bank-account-review', { bankAccountId: bank.body.bankAccountId, outcome: 'approve' })));
    ok(await step(() => c.post('/v1/submit/remove-bank-account', { bankAccountId: bank.body.bankAccountId })));
    const policy = await step(() => c.post('/v1/policies', { accountId: payer.body.accountId, rules: [{ type: 'max_amount', asset: 'ETH', chainId: 8453, amount: '0.5', window: '24h' }, { type: 'new_destination_delay', hours: 24 }] }));
    ok(policy, 201);
    ok(await step(() => c.delete(`/v1/policies/${policy.body.policyId}`)), 204);
    const reverter = privateKeyToAccount(generatePrivateKey()).address;
    await anvil.rpc('anvil_setCode', [reverter, '0x5f5ffd']);
    for (const [nonce, to] of [[0, privateKeyToAccount(generatePrivateKey()).address], [1, reverter]] as const) {
      const unsignedTransaction = serializeTransaction({ chainId: 8453, type: 'eip1559', nonce, to: to as Hex, value: 0n, gas: 60_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });
      const signedBody = {
        type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
        timestampMs: String(server.clock.now().getTime()),
        organizationId: payer.body.organizationId,
        parameters: { signWith: payer.body.walletAddress, unsignedTransaction, type: 'TRANSACTION_TYPE_ETHEREUM' },
      };
      const transactionId = crypto.randomUUID();
      ok(await step(() => c.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId, signedBody, webAuthnStamp: passkey.stamp(JSON.stringify(signedBody)) })), 201);
      const txDeadline = Date.now() + 10_000;
      while ((await c.get(`/v1/query/get-transaction?transactionId=${transactionId}`)).body.status === 'processing') {
        assert.ok(Date.now() < txDeadline, 'the watcher settled the transaction');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    // Members of an entity: the representative becomes first owner; a role change, a policy, a proposal approved to
    // its quorum, a removal.
    const team = await teamAccount(server, acme);
    const approver = await seatMember(server, acme, team, 'viewer');
    ok(await step(() => c.post('/v1/submit/update-member-role', asMember(server, team, team.owner, 'update-member-role', { accountId: team.accountId, userId: approver.userId, role: 'approver' }))));
    ok(await step(() => c.post('/v1/submit/update-approval-policy', asMember(server, team, team.owner, 'update-approval-policy', { accountId: team.accountId, requiredApprovals: 2 }))));
    await anvil.setBalance(team.walletAddress, 10n ** 18n);
    const proposalBody = {
      type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
      timestampMs: String(server.clock.now().getTime()),
      organizationId: team.organizationId,
      parameters: { signWith: team.walletAddress, unsignedTransaction: unsignedTransfer(8453, 0), type: 'TRANSACTION_TYPE_ETHEREUM' },
    };
    const proposal = await step(() => c.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: crypto.randomUUID(), signedBody: proposalBody, actingUserId: approver.userId, webAuthnStamp: approver.passkey.stamp(JSON.stringify(proposalBody)) }));
    ok(proposal, 201);
    ok(await step(() => c.post('/v1/submit/approve-transaction', asMember(server, team, team.owner, 'approve-transaction', { transactionId: proposal.body.transactionId }))));
    const leaving = await seatMember(server, acme, team, 'viewer');
    ok(await step(() => c.post('/v1/submit/remove-member', asMember(server, team, team.owner, 'remove-member', { accountId: team.accountId, userId: leaving.userId }))));

    // A product enabled, then disabled.
    ok(await step(() => c.post('/v1/submit/enable-product', { accountId: payer.body.accountId, productId: 'yield_vaults', termsAcceptedAt: server.clock.now().toISOString() })));
    ok(await step(() => c.post('/v1/submit/disable-product', { accountId: payer.body.accountId, productId: 'yield_vaults' })));

    // Invitations of an owner-less entity: one accepted, one revoked, one past its 7 days (expired on acceptance).
    const ownerless = await ownerlessEntity(server, acme, 'Invited Ltd');
    const accepted = await ownerInvitation(server, acme, ownerless.accountId);
    ok(await step(() => c.post('/v1/submit/accept-invitation', { token: accepted.token, userInfo: inviteeInfo(accepted.email), serviceTermsSignedAt: signedAt() })), 201);
    const revoked = await ownerInvitation(server, acme, legacy.body.accountId);
    ok(await step(() => c.post('/v1/submit/revoke-invitation', { invitationId: revoked.invitationId })));
    const expired = await ownerInvitation(server, acme, legacy.body.accountId);
    server.clock.advance(7 * 24 * 60 * 60 * 1000);
    ok(await step(() => c.post('/v1/submit/accept-invitation', { token: expired.token, userInfo: inviteeInfo(expired.email), serviceTermsSignedAt: signedAt() })), 410);

    // Onboarding links: one opened and completed (sandbox), one replaced by a newer link to the same address, one past its date.
    const link = await step(() => c.post('/v1/onboarding-links', { type: 'individual', email: 'onboard@example.com', redirectUrl: 'https://app.example.com/done' }));
    ok(link, 201);
    ok(await step(() => c.post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: link.body.onboardingLinkId, outcome: 'opened' })));
    ok(await step(() => c.post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: link.body.onboardingLinkId, outcome: 'completed', userId: user.body.userId })));
    ok(await step(() => c.post('/v1/onboarding-links', { type: 'individual', email: 'later@example.com' })), 201);
    ok(await step(() => c.post('/v1/onboarding-links', { type: 'individual', email: 'later@example.com', expiresInSeconds: 7200 })), 201);
    const short = await step(() => c.post('/v1/onboarding-links', { type: 'entity', expiresInSeconds: 60 }));
    ok(short, 201);
    server.clock.advance(61_000);
    ok(await step(() => c.get(`/v1/onboarding-links/${short.body.onboardingLinkId}`)));

    const port = (receiver.address() as AddressInfo).port;
    const sub = await step(() => c.post('/v1/webhooks/subscriptions', { name: 'Compliance hooks', url: `http://127.0.0.1:${port}/hooks`, eventTypes: ['user.*'] }));
    ok(sub, 201);
    const id = sub.body.subscription.id;
    ok(await step(() => c.patch(`/v1/webhooks/subscriptions/${id}`, { eventTypes: ['user.*', 'entity.*'] })));
    ok(await step(() => c.post(`/v1/webhooks/subscriptions/${id}/rotate-key`)));
    ok(await step(() => c.post(`/v1/webhooks/subscriptions/${id}/test`)), 202);
    // A user event goes to the receiver, which answers 410: the service disables the subscription.
    ok(await step(() => c.patch('/v1/submit/update-user', { userId: user.body.userId, userInfo: { phone: '+14155550124' } })));
    await eventually(
      () => c.get('/v1/events?type=webhook_subscription.disabled'),
      (r) => r.body.data.length > 0,
      'the subscription to be disabled after a 410',
    );
    const other = await step(() => c.post('/v1/webhooks/subscriptions', { name: 'temp', url: `http://127.0.0.1:${port}/x`, eventTypes: '*', enabled: false }));
    ok(await step(() => c.delete(`/v1/webhooks/subscriptions/${other.body.subscription.id}`)), 204);

    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      const page = await c.get(`/v1/events?order=asc&limit=100${cursor ? `&startingAfter=${cursor}` : ''}`);
      ok(page);
      for (const e of page.body.data) {
        emitted.push(e);
        seen.add(e.type);
        if (!examples.has(e.type)) examples.set(e.type, e);
      }
      if (!page.body.hasMore) break;
      cursor = page.body.data.at(-1).id;
    }
    assert.deepEqual([...seen].filter((t) => !(t in EVENT_TYPES)), [], 'emitted but not catalogued');
    assert.deepEqual(ALL_EVENT_TYPES.filter((t) => !seen.has(t)), [], 'catalogued but never emitted here');
  });

  it('every event matches the schema of its type in the served document (Event: a oneOf keyed on type)', async () => {
    const res = await fetch(`${server.url}/openapi.json`);
    const doc = (await res.json()) as OpenApiDoc;
    const event = doc.components.schemas!.Event as { oneOf: { $ref: string }[]; discriminator: { propertyName: string; mapping: Record<string, string> } };
    assert.equal(event.discriminator.propertyName, 'type');
    assert.deepEqual(Object.keys(event.discriminator.mapping).sort(), [...ALL_EVENT_TYPES].sort(), 'one branch per catalogued type');
    const checker = openApiChecker(doc);
    const anyEvent = checker.componentValidator('Event');
    assert.ok(emitted.length >= ALL_EVENT_TYPES.length, `${emitted.length} events`);
    for (const e of emitted) {
      assert.equal(anyEvent(e), undefined, `${e.type}: ${anyEvent(e)} in ${JSON.stringify(e).slice(0, 400)}`);
      const ofType = checker.componentValidator(eventSchemaName(e.type));
      assert.equal(ofType(e), undefined, `${e.type} matches ${eventSchemaName(e.type)}`);
      assert.equal(event.discriminator.mapping[e.type], `#/components/schemas/${eventSchemaName(e.type)}`);
    }
    // The branches tell types apart: an event with another type's name fails.
    const [first] = emitted as { type: string; data: unknown }[];
    assert.notEqual(anyEvent({ ...first, type: 'transaction.completed' }), undefined);
  });

  it('docs/event-types.md shows a payload of every type, shaped like the real one', () => {
    if (process.env.UPDATE_DOCS === '1') writeFileSync(DOC, render(examples));
    const docs = documented(readFileSync(DOC, 'utf8'));
    for (const t of ALL_EVENT_TYPES) {
      const real = examples.get(t) as { data: { object: unknown; previousAttributes?: unknown } };
      const shown = docs.get(t) as typeof real | undefined;
      assert.ok(shown, `${t} is documented (UPDATE_DOCS=1 npm test -- event-catalogue regenerates the page)`);
      assert.deepEqual(shape(shown.data.object), shape(real.data.object), `${t}: data.object`);
      assert.equal('previousAttributes' in shown.data, 'previousAttributes' in real.data, `${t}: previousAttributes`);
    }
  });
});

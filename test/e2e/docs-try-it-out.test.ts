import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Locator, Page, Response } from 'playwright-core';
import { encodeDerSignature, P256_N, parseDerSignature } from '../../src/crypto/der-signature.js';
import { importCompressedPublicKey, importPrivateKey, verifyDer, generateP256KeyPair } from '../../src/crypto/p256.js';
import { DOCS_CSP, DOCS_KEY_STORAGE } from '../../src/http/pages/docs-try-it-out.js';
import { consolePage, describeInChromium, DOCS_TIMEOUT } from '../harness/chromium.js';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

// /docs in a real headless Chromium: in the sandbox the page signs "Try it out" requests with a pasted private key
// (WebCrypto, DER) and the real server answers them; the key stays in sessionStorage and never leaves the page. In
// production Try it out is off and the page says so. The page's CSP holds throughout (violations are console errors).

// What the functions passed to page.evaluate use: they run in the browser, and the test project has no DOM library.
declare const window: {
  integratorDocs: {
    keyFrom(privateKeyHex: string): Promise<{ publicKey: string; sign(message: string): Promise<string> }>;
    der(raw: Uint8Array): Uint8Array;
  };
};
declare const sessionStorage: { getItem(key: string): string | null };
declare const localStorage: { length: number };


/** Expands the operation, switches Try it out on, optionally fills query parameters and its JSON body, executes; the status shown. */
async function execute(op: Locator, input: { body?: string; query?: Record<string, string> } = {}): Promise<{ status: string; text: string }> {
  await op.locator('.opblock-summary').first().click();
  await op.getByRole('button', { name: 'Try it out' }).click();
  if (input.body !== undefined) await op.locator('textarea.body-param__text').fill(input.body);
  for (const [name, value] of Object.entries(input.query ?? {})) await op.locator(`tr[data-param-name="${name}"] input`).fill(value);
  await op.getByRole('button', { name: 'Execute' }).click();
  const status = op.locator('.live-responses-table .response .response-col_status');
  await status.waitFor();
  return { status: (await status.textContent())?.trim() ?? '', text: (await op.locator('.live-responses-table .response .response-col_description').textContent()) ?? '' };
}

const operation = (page: Page, id: string) => page.locator(`[id="${id}"]`);

interface SentRequest {
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

describeInChromium('/docs Try it out in Chromium', 'the /docs Try it out browser test is', (backend, browser) => {
  let sandbox: TestServer;
  let production: TestServer;
  let acme: SeededIntegrator;
  /** The sandbox's /docs, opened once (swagger-ui takes seconds to render the document) for the first two tests. */
  let docs: Awaited<ReturnType<typeof consolePage>> & { response: Response | null; sent: SentRequest[] };

  // Both servers start at once: most of this file's time is start-up and swagger-ui's rendering.
  before(async () => {
    const started = await Promise.allSettled([startTenants(backend, ['Acme Docs']), startServer(backend, { APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32) })] as const);
    if (started[0].status === 'fulfilled') ({ server: sandbox, tenants: [acme] } = started[0].value);
    if (started[1].status === 'fulfilled') production = started[1].value;
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    const opened = await consolePage(browser);
    opened.context.setDefaultTimeout(DOCS_TIMEOUT);
    const sent: SentRequest[] = [];
    opened.page.on('request', (request) => sent.push({ url: request.url(), headers: request.headers(), body: request.postData() }));
    docs = { ...opened, sent, response: await opened.page.goto(`${sandbox.url}/docs`) };
  });
  after(() => Promise.all([browser?.close(), sandbox?.close(), production?.close()]));

  it('serves its CSP; the page derives the public key of any private key and signs strict DER that the server verifies', async () => {
    const { page, errors, response } = docs;
    assert.equal(response?.status(), 200);
    assert.equal(response?.headers()['content-security-policy'], DOCS_CSP);
    await page.locator('#docs-signing').waitFor();
    const keys = ['0x' + '00'.repeat(31) + '01', `0x${(P256_N - 1n).toString(16)}`, ...Array.from({ length: 14 }, () => generateP256KeyPair().privateKey)];
    const message = `${Math.floor(Date.now() / 1000)}POST/v1/integrator/credentials{"label":"é ✓"}`;
    const signed = await page.evaluate(
      ([privateKeys, text]) => Promise.all(privateKeys.map(async (k) => {
        const key = await window.integratorDocs.keyFrom(k);
        return [key.publicKey, await key.sign(text)];
      })),
      [keys, message] as const,
    );
    keys.forEach((privateKey, i) => {
      const [publicKey, signature] = signed[i] as [string, string];
      assert.equal(publicKey, importPrivateKey(privateKey).publicKey, `public key of ${privateKey}`);
      const der = Buffer.from(signature.slice(2), 'hex');
      assert.ok(parseDerSignature(der), 'strict DER');
      assert.ok(verifyDer(importCompressedPublicKey(publicKey), Buffer.from(message, 'utf8'), der), 'verifies');
    });
    // r||s to DER at the edges: leading zero bytes dropped, a zero byte before a high bit, as the server encodes.
    const edges = [
      [1n, 1n],
      [0x80n, 0xffn << 248n],
      [(1n << 255n) + 5n, 0x7fn],
      [P256_N - 1n, BigInt(`0x${randomBytes(32).toString('hex')}`) % P256_N || 1n],
    ];
    for (const [r, s] of edges) {
      const raw = Buffer.from(r!.toString(16).padStart(64, '0') + s!.toString(16).padStart(64, '0'), 'hex');
      const der = Buffer.from(await page.evaluate((bytes) => Array.from(window.integratorDocs.der(Uint8Array.from(bytes))), Array.from(raw)));
      assert.deepEqual(der, encodeDerSignature({ r: r!, s: s! }));
      assert.deepEqual(parseDerSignature(der), { r, s });
    }
    assert.deepEqual(errors, []);
  });

  it('signs whoami, a listing with a query and a credential creation with the pasted key, which stays in sessionStorage and never leaves the page', async () => {
    const { page, errors, sent } = docs;
    const whoami = operation(page, 'operations-Integrator_key_management-whoami');
    await whoami.waitFor();
    const status = page.locator('#docs-signing-status');
    assert.match((await status.textContent()) ?? '', /No key/);
    assert.equal(await page.locator('#docs-forget-key').isHidden(), true);

    // A bad key is refused with a message; nothing is stored.
    await page.getByLabel('Private key').fill('0x1234');
    await page.getByRole('button', { name: 'Use key' }).click();
    await status.filter({ hasText: '64 hex digits' }).waitFor();
    assert.equal(await page.evaluate((name) => sessionStorage.getItem(name), DOCS_KEY_STORAGE), null);

    await page.getByLabel('Private key').fill(acme.privateKey);
    await page.getByRole('button', { name: 'Use key' }).click();
    await status.filter({ hasText: acme.publicKey }).waitFor();
    assert.equal(await page.getByLabel('Private key').inputValue(), '', 'the field is emptied');
    assert.deepEqual(await page.evaluate((name) => [sessionStorage.getItem(name), localStorage.length], DOCS_KEY_STORAGE), [acme.privateKey.toLowerCase(), 0]);

    const me = await execute(whoami);
    assert.equal(me.status, '200', me.text);
    assert.match(me.text, new RegExp(acme.integratorId));

    // A query string is part of what is signed: the server would answer 401 to a signature over the bare path.
    const accounts = await execute(operation(page, 'operations-Account_management-listAccounts'), { query: { limit: '2' } });
    assert.equal(accounts.status, '200', accounts.text);

    // A POST is signed over the exact body swagger-ui sends.
    const create = operation(page, 'operations-Integrator_key_management-createCredential');
    const label = `from-docs-${randomUUID()}`;
    const { publicKey } = generateP256KeyPair();
    const body = `{\n  "label": "${label}",\n  "scope": "read_only",\n  "publicKey": "${publicKey}"\n}`;
    const created = await execute(create, { body });
    assert.equal(created.status, '201', created.text);
    const listed = await acme.client.get('/v1/integrator/credentials');
    const credential = listed.body.credentials.find((c: { label: string }) => c.label === label);
    assert.deepEqual([credential?.publicKey, credential?.scope], [publicKey, 'read_only'], listed.text);

    // What went over the wire: the three /v1 requests, signed, and the private key in no request at all.
    const v1 = sent.filter((r) => new URL(r.url).pathname.startsWith('/v1/'));
    assert.deepEqual(
      v1.map((r) => [new URL(r.url).pathname + new URL(r.url).search, r.headers['x-pubkey']]),
      [['/v1/integrator/whoami', acme.publicKey], ['/v1/query/list-accounts?limit=2', acme.publicKey], ['/v1/integrator/credentials', acme.publicKey]],
    );
    assert.equal(v1[2]?.body, body);
    for (const r of v1) assert.match(r.headers['x-signature'] ?? '', /^0x30[0-9a-f]+$/);
    const secret = acme.privateKey.slice(2).toLowerCase();
    for (const r of sent) assert.ok(!`${r.url} ${JSON.stringify(r.headers)} ${r.body ?? ''}`.toLowerCase().includes(secret), `${r.url} carries no private key`);

    // The key survives a reload of the tab (sessionStorage).
    await page.reload();
    await status.filter({ hasText: acme.publicKey }).waitFor();
    assert.deepEqual(await page.evaluate((name) => [sessionStorage.getItem(name), localStorage.length], DOCS_KEY_STORAGE), [acme.privateKey.toLowerCase(), 0]);

    await page.getByRole('button', { name: 'Forget key' }).click();
    await status.filter({ hasText: 'No key' }).waitFor();
    assert.deepEqual(await page.evaluate((name) => [sessionStorage.getItem(name), localStorage.length], DOCS_KEY_STORAGE), [null, 0]);
    assert.deepEqual(errors, []);
  });

  it('in production: has Try it out off and says plainly to use the CLI; no key field', async () => {
    const { context, page, errors } = await consolePage(browser);
    context.setDefaultTimeout(DOCS_TIMEOUT);
    const response = await page.goto(`${production.url}/docs`);
    assert.equal(response?.headers()['content-security-policy'], DOCS_CSP);
    const whoami = operation(page, 'operations-Integrator_key_management-whoami');
    await whoami.waitFor();
    const notice = page.getByRole('note');
    assert.equal(await notice.getByRole('heading').textContent(), 'Try it out is off on this server');
    assert.match((await notice.textContent()) ?? '', /npm run -s cli -- request GET \/v1\/integrator\/whoami.*docs\/sdk\.md#cli/);
    await whoami.locator('.opblock-summary').first().click();
    await whoami.locator('.opblock-body').waitFor();
    assert.equal(await whoami.getByRole('button', { name: 'Try it out' }).count(), 0);
    assert.equal(await page.locator('#docs-private-key').count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });
});

import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { after, before } from 'node:test';
import { startAnvil, type Anvil } from './anvil.js';
import { describeInChromium, TIMEOUT } from './chromium.js';
import type { SeededIntegrator, TestServer } from './server.js';
import { startTenants } from './tenants.js';

// What an integrator's wallet front end does with passkeys, in a real browser: navigator.credentials.create at
// sign-up, navigator.credentials.get over the challenge of a signedBody (Turnkey's rule). Served from
// http://localhost, the sandbox's default relying party.

// The browser-side functions the tests call (defined by the page's script); the test project has no DOM library.
declare const window: {
  register(challenge: string, userId: string): Promise<BrowserAttestation>;
};

export interface BrowserAttestation {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports: string[];
}

/** The wallet page: base64url helpers and a registration, nothing else (stamps are made by stampInBrowser). */
const PAGE = `<!doctype html><meta charset="utf-8"><title>E2E wallet</title><script>
const b64u = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const fromB64u = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
window.register = async (challenge, userId) => {
  const credential = await navigator.credentials.create({ publicKey: {
    rp: { id: 'localhost', name: 'E2E Wallet' },
    user: { id: fromB64u(userId), name: 'alice@example.com', displayName: 'Alice' },
    challenge: fromB64u(challenge),
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    attestation: 'none',
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    timeout: 10000,
  } });
  return {
    credentialId: b64u(credential.rawId),
    clientDataJson: b64u(credential.response.clientDataJSON),
    attestationObject: b64u(credential.response.attestationObject),
    transports: credential.response.getTransports(),
  };
};
</script><p>wallet</p>`;

/** Serves the wallet page on a free port; its URL uses localhost (browsers refuse IP addresses as relying-party ids). */
export async function startWalletSite(): Promise<{ url: string; close(): Promise<void> }> {
  const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(site.address() as AddressInfo).port}/`, close: () => new Promise((resolve) => site.close(() => resolve())) };
}

/** A blank page with a CDP virtual platform authenticator (user verification on, presence automatic); `errors` collects console errors. */
export async function authenticatorPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  page.setDefaultTimeout(TIMEOUT);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { page, errors };
}

/** The wallet page at `url` with a virtual authenticator. */
export async function walletPage(browser: Browser, url: string): Promise<{ page: Page; errors: string[] }> {
  const opened = await authenticatorPage(browser);
  await opened.page.goto(url);
  return opened;
}

/** A passkey registered in the page: the server's `authenticators[]` entry (a fresh challenge) and its credential id. */
export async function registerPasskey(page: Page, name = 'Chromium passkey'): Promise<{ authenticator: { authenticatorName: string; challenge: string; attestation: BrowserAttestation }; credentialId: string }> {
  const challenge = randomBytes(32).toString('base64url');
  const attestation = await page.evaluate(([c, u]) => window.register(c, u), [challenge, randomBytes(16).toString('base64url')] as const);
  return { authenticator: { authenticatorName: name, challenge, attestation }, credentialId: attestation.credentialId };
}

/** Runs in the page (as text: tsx would wrap named functions in a helper the page does not have). */
const STAMP = `async (body, id) => {
  const b64u = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const fromB64u = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const assertion = await navigator.credentials.get({ publicKey: { challenge: new TextEncoder().encode(hex), rpId: 'localhost', allowCredentials: [{ type: 'public-key', id: fromB64u(id) }], userVerification: 'preferred', timeout: 10000 } });
  return JSON.stringify({
    authenticatorData: b64u(assertion.response.authenticatorData),
    clientDataJson: b64u(assertion.response.clientDataJSON),
    credentialId: b64u(assertion.rawId),
    signature: b64u(assertion.response.signature),
  });
}`;

/**
 * A Turnkey-style stamp of `text` by the page's passkey `credentialId` (challenge: the UTF-8 bytes of the hex
 * SHA-256 of the text), made with navigator.credentials.get in the page. Playwright's evaluate is not bound by
 * the page's CSP, so the hosted page itself can stamp once its passkey exists.
 */
export function stampInBrowser(page: Page, text: string, credentialId: string): Promise<string> {
  return page.evaluate(`(${STAMP})(${JSON.stringify(text)}, ${JSON.stringify(credentialId)})`) as Promise<string>;
}

/** The stamp of `body` (JSON.stringify'd, as the server checks it) by the page's passkey `credentialId`. */
export function stampInPage(page: Page, body: unknown, credentialId: string): Promise<string> {
  return stampInBrowser(page, JSON.stringify(body), credentialId);
}


/** What a browser passkey suite's tests share: Chromium, the wallet site, an anvil node for chain 8453 and a server whose tenant Acme sends on it. */
export interface WalletSuite {
  browser: Browser;
  site: { url: string; close(): Promise<void> };
  base: Anvil;
  server: TestServer;
  acme: SeededIntegrator;
}

/**
 * describeInChromium for the passkey suites: per backend, the wallet site, an anvil node for chain 8453 and a server
 * (tenant Acme) reading that node are started before and stopped after `body`'s tests; the fields are set once
 * `before` ran.
 */
export function describeWalletInChromium(title: string, what: string, body: (suite: WalletSuite) => void): void {
  describeInChromium(title, what, (backend, browser) => {
    const suite = { browser } as WalletSuite;
    before(async () => {
      [suite.base, suite.site] = await Promise.all([startAnvil(8453), startWalletSite()]);
      ({ server: suite.server, tenants: [suite.acme] } = await startTenants(backend, ['Acme'], { CHAIN_RPC_URLS: `8453=${suite.base.url}` }));
    });
    after(async () => {
      await suite.server?.close();
      await suite.site?.close();
      await suite.base?.stop();
    });
    body(suite);
  });
}

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { backends } from '../harness/backends.js';
import { createCustomer } from '../harness/customers.js';
import { eventsFor } from '../harness/db.js';
import { ROOT } from '../harness/root.js';
import { useTenants } from '../harness/tenants.js';

/*
 * `integrator onboarding-links create|get|revoke` as a user runs them, against a real server: create prints the link
 * with its url (whose page then answers, and marks it opened), get its status, revoke revokes it and prints it
 * revoked; mistakes in the command line are usage errors (64), the server's refusals its problem on stderr (exit 1).
 */
const CLI = join(ROOT, 'packages/sdk/src/cli.ts');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|^INTEGRATOR_|^NODE_OPTIONS$/.test(k)));

for (const backend of backends()) {
  describe(`integrator onboarding-links [${backend}]`, () => {
    const { server, tenants: [acme, globex] } = useTenants(backend, ['Acme', 'Globex']);

    function cli(who: typeof acme, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string; json: () => Record<string, unknown> }> {
      const env = { ...cleanEnv, INTEGRATOR_BASE_URL: server.url, INTEGRATOR_PRIVATE_KEY: who.privateKey, INTEGRATOR_PROFILE: join(ROOT, 'no-such-profile.json') };
      return new Promise((resolve) => {
        execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env }, (err, stdout, stderr) =>
          resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr, json: () => JSON.parse(stdout) as Record<string, unknown> }),
        );
      });
    }
    const links = async () => ((await server.database.db.execute(sql`select count(*)::int as n from onboarding_links`)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
    const page = async (url: string) => (await fetch(`${server.url}${new URL(url).pathname}`, { headers: { accept: 'text/html' } })).status;

    it('create prints the link with its url; its page opens it; get shows it opened; revoke prints it revoked', async () => {
      const made = await cli(acme, 'onboarding-links', 'create', '--type', 'individual', '--email', 'ana.silva@example.com', '--redirect-url', 'http://localhost:5173/done', '--expires-in', '90m');
      assert.equal(made.code, 0, made.stderr);
      const link = made.json();
      assert.match(link.url as string, /\/onboarding\/obl_[A-Za-z0-9_-]{43}$/);
      assert.deepEqual([link.type, link.status, link.email, link.redirectUrl], ['individual', 'pending', 'ana.silva@example.com', 'http://localhost:5173/done']);
      assert.equal(Date.parse(link.expiresAt as string) - Date.parse(link.createdAt as string), 90 * 60_000, '--expires-in 90m');

      assert.equal(await page(link.url as string), 200);
      const got = await cli(acme, 'onboarding-links', 'get', link.onboardingLinkId as string);
      assert.equal(got.code, 0, got.stderr);
      assert.equal(got.json().status, 'opened');
      assert.equal(got.json().url, undefined, 'the url is shown once');

      const revoked = await cli(acme, 'onboarding-links', 'revoke', link.onboardingLinkId as string);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.equal(revoked.json().status, 'revoked');
      assert.equal(await page(link.url as string), 410);
      assert.deepEqual((await eventsFor(server.database, link.onboardingLinkId as string)).map((e) => e.type), ['onboarding_link.created', 'onboarding_link.opened', 'onboarding_link.revoked']);
    });

    it('--user makes a link for an existing customer; another integrator’s link is not found; seconds without a unit', async () => {
      const customer = await createCustomer(server, acme, { approve: false });
      const made = await cli(acme, 'onboarding-links', 'create', '--type', 'individual', '--user', customer.userId, '--expires-in', '600');
      assert.equal(made.code, 0, made.stderr);
      const link = made.json();
      assert.equal(link.userId, customer.userId);
      assert.equal(Date.parse(link.expiresAt as string) - Date.parse(link.createdAt as string), 600_000);
      const theirs = await cli(globex, 'onboarding-links', 'get', link.onboardingLinkId as string);
      assert.equal(theirs.code, 1);
      assert.equal(JSON.parse(theirs.stderr).status, 404);
      const notTheirs = await cli(globex, 'onboarding-links', 'revoke', link.onboardingLinkId as string);
      assert.equal(notTheirs.code, 1);
      assert.equal((await cli(acme, 'onboarding-links', 'get', link.onboardingLinkId as string)).json().status, 'pending', 'still live');
    });

    it('mistakes: usage errors (64) before any request; the server’s refusals as problems on stderr (1)', async () => {
      const before = await links();
      const usage = await Promise.all([
        cli(acme, 'onboarding-links', 'create'),
        cli(acme, 'onboarding-links', 'create', '--type', 'company'),
        cli(acme, 'onboarding-links', 'create', '--type', 'individual', '--expires-in', 'soon'),
        cli(acme, 'onboarding-links', 'get'),
        cli(acme, 'onboarding-links', 'frobnicate'),
      ]);
      for (const answer of usage) {
        assert.equal(answer.code, 64, answer.stderr);
        assert.equal(answer.stdout, '');
      }
      assert.match(usage[0]!.stderr, /^integrator onboarding-links create needs --type individual or --type entity/);
      assert.match(usage[2]!.stderr, /--expires-in takes seconds or a number with s, m or h/);
      assert.match(usage[4]!.stderr, /^integrator onboarding-links create --type/);

      const tooShort = await cli(acme, 'onboarding-links', 'create', '--type', 'individual', '--expires-in', '30s');
      assert.equal(tooShort.code, 1);
      assert.equal(JSON.parse(tooShort.stderr).errors[0].pointer, '/expiresInSeconds');
      const insecure = await cli(acme, 'onboarding-links', 'create', '--type', 'entity', '--redirect-url', 'http://example.com/done');
      assert.equal(insecure.code, 1);
      assert.equal(JSON.parse(insecure.stderr).errors[0].code, 'https_required');
      assert.equal(await links(), before, 'nothing written');
    });
  });
}

import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, startServerProcess, type ServerProcess } from '../harness/process.js';
import { ROOT } from '../harness/root.js';

/*
 * docs/quickstart.md, run as a reader runs it: every marked block, in order. Shell blocks run in bash, `.ts` blocks
 * are saved under their name. The directory is a stand-in for the repository's root (a symlink to each of its entries,
 * with its own data/ and the reader's files), so nothing is written into the tree, and the documented ports (8545,
 * 8080, 3000) are replaced by free ones. Long-running blocks (the chain, the webhook receiver) run in the background
 * as in their own terminals; the "work" terminal is one bash process, so its exports and helper carry from block to
 * block as they do for a reader.
 *
 * The server block is the one not run through npm: the test starts the server the way the other process tests do
 * (test/harness/process.ts: the dist/ that `npm test` has just built, which is what `npm start` runs), with exactly
 * the environment the block sets, on the data directory the blocks use.
 */


interface Block {
  name: string;
  lang: string;
  body: string;
}

function quickstartBlocks(): Block[] {
  const text = readFileSync(join(ROOT, 'docs/quickstart.md'), 'utf8');
  const re = /<!-- quickstart:([\w.-]+):start -->\s*```(\w+)\n([\s\S]*?)```\s*<!-- quickstart:\1:end -->/g;
  return [...text.matchAll(re)].map((m) => ({ name: m[1]!, lang: m[2]!, body: m[3]! }));
}

/** Output of a background process, and a bounded wait for a line of it. */
interface Background {
  child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, what: string, timeoutMs?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

function background(script: string, cwd: string, env: NodeJS.ProcessEnv): Background {
  // Its own process group, so stopping it stops npm, tsx and anvil under it too.
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of waiters) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  child.on('exit', () => {
    for (const w of waiters) w();
  });
  return {
    child,
    output: () => out,
    waitFor: (pattern, what, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(out);
          if (m) return done(() => resolve(m));
          if (child.exitCode !== null || child.signalCode !== null) return done(() => reject(new Error(`${what}: exited (${child.exitCode ?? child.signalCode}) first:\n${out}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`${what}: not within ${timeoutMs} ms:\n${out}`))), timeoutMs);
        const done = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const kill = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 5000);
        kill.unref();
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        process.kill(-child.pid!, 'SIGTERM');
      }),
  };
}

describe('docs/quickstart.md, block by block', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quickstart-'));
  const all = quickstartBlocks();
  const byName = new Map(all.map((b) => [b.name, b]));
  const ports = { chain: 0, server: 0, receiver: 0 };
  let env: NodeJS.ProcessEnv;
  let chain: Background | undefined;
  let receiver: Background | undefined;
  let server: ServerProcess | undefined;
  let work: ChildProcess;
  let workOut = '';
  let blockNumber = 0;

  /** A block's text with the documented ports replaced by the test's. */
  const text = (name: string) => {
    const block = byName.get(name);
    assert.ok(block, `docs/quickstart.md has the block ${name}`);
    return block.body
      .replaceAll('127.0.0.1:8545', `127.0.0.1:${ports.chain}`)
      .replaceAll('127.0.0.1:8080', `127.0.0.1:${ports.server}`)
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${ports.receiver}`);
  };

  /** Runs a block in the work terminal (sourced, as if pasted) and resolves with what it printed. */
  const runWork = (name: string, timeoutMs = 60_000) =>
    new Promise<string>((resolve, reject) => {
      const n = ++blockNumber;
      const file = join(dir, `.quickstart-block-${n}.sh`);
      writeFileSync(file, text(name));
      const marker = `__quickstart_block_${n}_done__`;
      const start = workOut.length;
      const check = () => {
        const at = workOut.indexOf(marker, start);
        if (at !== -1) return done(() => resolve(workOut.slice(start, at)));
        if (work.exitCode !== null) return done(() => reject(new Error(`block ${name} failed (exit ${work.exitCode}):\n${workOut.slice(start)}`)));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`block ${name}: not done within ${timeoutMs} ms:\n${workOut.slice(start)}`))), timeoutMs);
      const done = (settle: () => void) => {
        clearTimeout(timer);
        work.stdout!.off('data', check);
        work.stderr!.off('data', check);
        work.off('exit', check);
        settle();
      };
      work.stdout!.on('data', check);
      work.stderr!.on('data', check);
      work.on('exit', check);
      work.stdin!.write(`source ${JSON.stringify(file)} < /dev/null; echo ${marker}\n`);
    });

  /** Saves a `.ts` block under its name, as the reader does. */
  // Where the page says to save them: scratch/, which git ignores.
  const save = (name: string) => writeFileSync(join(dir, 'scratch', name), text(name));

  /** Starts the server as the server block says (its variables; the harness's entry point in place of npm start). */
  const startServer = async () => {
    const command = text('server').trim();
    const m = /^((?:[A-Z_]+=\S+ )+)npm start$/.exec(command);
    assert.ok(m, `the server block is "VAR=value ... npm start": ${command}`);
    const vars = Object.fromEntries(m[1]!.trim().split(' ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
    server = await startServerProcess({ ...(env as Record<string, string>), ...vars, DATA_DIR: join(dir, 'data'), PORT: String(ports.server) });
  };

  before(async () => {
    // The scripts import `@integrator-api/sdk`, linked to packages/sdk, whose dist/ `npm ci` built: rebuilt here from
    // the current sources (swapped in whole), so the blocks run the SDK as it is now, not as it was at install.
    execFileSync(process.execPath, [join(ROOT, 'packages/sdk/scripts/build.mjs')], { stdio: 'pipe' });
    for (const entry of readdirSync(ROOT)) if (!['data', '.git', 'scratch'].includes(entry)) symlinkSync(join(ROOT, entry), join(dir, entry));
    mkdirSync(join(dir, 'scratch'));
    ports.chain = await freePort();
    ports.server = await freePort();
    ports.receiver = await freePort();
    // A reader's terminal: none of the test runner's npm variables, nor any configuration of this process.
    env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|^INTEGRATOR_|^(DATA_DIR|DATABASE_URL|PORT|HOST|APP_ENV|ENCRYPTION_KEY|TREASURY_PRIVATE_KEY|CHAIN_RPC_URLS|TOKENS|VAULTS|LOG_LEVEL|NODE_OPTIONS)$/.test(k)));
    env.INTEGRATOR_PROFILE = join(dir, 'no-profile.json');
    // Its own process group, so a block still running when the test ends is stopped with it.
    work = spawn('bash', ['--norc', '--noprofile'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    work.stdout!.on('data', (c: Buffer) => (workOut += c.toString()));
    work.stderr!.on('data', (c: Buffer) => (workOut += c.toString()));
    work.stdin!.write('set -euo pipefail\n');
  });

  after(async () => {
    work?.stdin?.end();
    if (work?.exitCode === null) {
      try {
        process.kill(-work.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await receiver?.stop();
    await server?.stop('SIGTERM');
    await chain?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('2-4. npm run chain funds the treasury; an integrator is created; the server starts as the block says', { timeout: 180_000 }, async () => {
    // The chain block as written; CHAIN_PORT (documented beside it) moves it to the test's port.
    chain = background(text('chain'), dir, { ...env, CHAIN_PORT: String(ports.chain) });
    const ready = await chain.waitFor(/^Ready: .*$/m, 'npm run chain');
    assert.match(ready[0], new RegExp(`CHAIN_RPC_URLS=31337=http://127\\.0\\.0\\.1:${ports.chain} TOKENS=31337:USDC:0x5FbDB2315678afecb367f032d93F642f64180aa3; its sandbox treasury 0x[0-9a-fA-F]{40} holds 1000000 ETH and 1000000 USDC`));

    const created = JSON.parse(await runWork('integrator', 90_000));
    assert.equal(created.name, 'Acme Pay');
    assert.match(created.privateKey, /^0x[0-9a-f]{64}$/);

    await startServer();
    assert.equal(server!.url, `http://127.0.0.1:${ports.server}`);
  });

  it('5-6. credentials from the environment; the webhook receiver subscribes and listens', { timeout: 180_000 }, async () => {
    const whoami = JSON.parse(await runWork('env').then(() => runWork('whoami')));
    assert.equal(whoami.label, 'bootstrap');
    assert.equal(whoami.scope, 'read_write');

    save('webhooks.ts');
    receiver = background(`${text('env')}\n${text('receiver')}`, dir, env);
    await receiver.waitFor(new RegExp(`^Listening on http://127\\.0\\.0\\.1:${ports.receiver}/webhooks \\(subscription [0-9a-f-]{36}\\)$`, 'm'), 'the webhook receiver');
  });

  it('7-8. an account is verified and funded by a simulated deposit paid out on the chain', { timeout: 180_000 }, async () => {
    const created = await runWork('account');
    assert.match(created, /"verificationStatus": "under_review"/);
    const verified = JSON.parse(await runWork('verify'));
    assert.equal(verified.verificationStatus, 'active');
    const deposit = await runWork('deposit', 60_000);
    assert.match(deposit, /"status": "funds_in_transfer"/);
    assert.match(deposit, /"status": "completed"/);
  });

  it('9. an OTP-approved transfer completes, and its webhooks arrive verified', { timeout: 180_000 }, async () => {
    save('transfer.ts');
    const out = await runWork('transfer', 60_000);
    const m = /^transfer ([0-9a-f-]{36}) completed in block \d+$/m.exec(out);
    assert.ok(m, `the transfer completed:\n${out}`);
    assert.match(out, new RegExp(`^transfer ${m[1]} processing 0x[0-9a-f]{64}$`, 'm'));
    // The receiver verified the deliveries with verifyWebhook; the deposit's came before.
    await receiver!.waitFor(new RegExp(`^verified transaction\\.completed transfer ${m[1]} completed$`, 'm'), 'the transfer’s verified webhook', 30_000);
    assert.match(receiver!.output(), /^verified transaction\.completed deposit [0-9a-f-]{36} completed$/m);
    assert.doesNotMatch(receiver!.output(), /rejected/);
  });

  it('10. a demo vault: deployed beside the running server, deposited into with OTP approvals, and its yield shows', { timeout: 180_000 }, async () => {
    const deployed = JSON.parse(await runWork('vault-deploy', 90_000));
    assert.deepEqual([deployed.chainId, deployed.asset.symbol, deployed.asset.address], [31337, 'dUSD', deployed.token]);
    await runWork('vault-fund', 60_000);
    save('vault.ts');
    const out = await runWork('vault', 60_000);
    if (process.env.QUICKSTART_DEBUG) console.log(out);
    assert.match(out, /^depositing 500 dUSD for [\d.]+ shares$/m);
    assert.match(out, /^approve completed$/m);
    assert.match(out, /^deposit completed$/m);
    // Two answers: mint-demo's, then the position (the last JSON object printed).
    const position = JSON.parse((await runWork('yield', 60_000)).split(/^(?=\{$)/m).at(-1)!);
    assert.ok(Number(position.earnings) > 49 && Number(position.earnings) <= 50, `earnings about 50: ${JSON.stringify(position)}`);
    assert.equal(position.netDeposited, '500');
  });

  it('11. USDC: a deposit paid in USDC, the balances, a withdrawal paid with USDC', { timeout: 180_000 }, async () => {
    save('usdc.ts');
    const out = await runWork('usdc', 120_000);
    if (process.env.QUICKSTART_DEBUG) console.log(out);
    assert.match(out, /^deposit completed: 250 USDC$/m);
    assert.match(out, /^balance 250 USDC at block \d+$/m);
    assert.match(out, /^balance [\d.]+ ETH at block \d+$/m);
    assert.match(out, /^withdrawal quoted: 100\.5 USDC \(fee included\)$/m);
    assert.match(out, /^withdrawal completed$/m);
    assert.match(out, /^USDC left: 149\.5$/m);
  });

  it('12. a hosted onboarding link: made with the CLI, its page served to the browser, opened; a new one with the SDK revokes it; webhooks verified', { timeout: 120_000 }, async () => {
    const made = await runWork('link');
    const link = JSON.parse(made.slice(0, made.indexOf('Open in a browser: '))) as { onboardingLinkId: string; status: string; url: string };
    assert.equal(link.status, 'pending');
    assert.match(made, new RegExp(`^Open in a browser: http://localhost:${ports.server}/onboarding/obl_[\\w-]{43}$`, 'm'));
    assert.ok(made.includes(`Open in a browser: ${link.url}\n`), made);
    // The reader opens the printed url: a browser's GET, as it asks for a page.
    const page = await fetch(link.url, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) quickstart' } });
    const html = await page.text();
    assert.equal(page.status, 200, html);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    assert.match(html, /Acme Pay/);
    const opened = JSON.parse(await runWork('link-status'));
    assert.deepEqual([opened.onboardingLinkId, opened.status], [link.onboardingLinkId, 'opened']);

    save('link.ts');
    const again = await runWork('link-again');
    const next = /^link ([0-9a-f-]{36}) pending until \S+$/m.exec(again);
    assert.ok(next, again);
    assert.match(again, new RegExp(`^earlier link ${link.onboardingLinkId} revoked$`, 'm'));
    for (const [type, id, status] of [['created', link.onboardingLinkId, 'pending'], ['opened', link.onboardingLinkId, 'opened'], ['revoked', link.onboardingLinkId, 'revoked'], ['created', next[1], 'pending']]) {
      await receiver!.waitFor(new RegExp(`^verified onboarding_link\\.${type} ${id} ${status}$`, 'm'), `the link's ${type} webhook`, 30_000);
    }
    assert.doesNotMatch(receiver!.output(), /rejected/);
  });

  it('runs every marked block of the page', { timeout: 180_000 }, () => {
    const used = new Set(['chain', 'integrator', 'server', 'env', 'whoami', 'webhooks.ts', 'receiver', 'account', 'verify', 'deposit', 'transfer.ts', 'transfer', 'vault-deploy', 'vault-fund', 'vault.ts', 'vault', 'yield', 'usdc.ts', 'usdc', 'link', 'link-status', 'link.ts', 'link-again']);
    assert.deepEqual(
      all.map((b) => b.name).filter((n) => !used.has(n)),
      [],
    );
  });
});

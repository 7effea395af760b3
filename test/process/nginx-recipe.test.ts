import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Agent, setGlobalDispatcher } from 'undici';
import { createClient, type Client } from '../harness/client.js';
import { postgresUrl, provisionDatabase } from '../harness/backends.js';
import { entryPoint, freePort, runAdmin, startServerProcess, type ServerProcess } from '../harness/process.js';
import { ROOT_URL as ROOT } from '../harness/root.js';

/*
 * The deployment recipe of docs/deployment.md#behind-nginx-several-processes, run as written: two API processes and
 * two webhook workers on one PostgreSQL database, behind nginx (Debian's package) with deploy/nginx/integrator-api.conf,
 * and deploy/rolling-restart.sh restarting each API process in turn (its RESTART_COMMAND is this test standing in for
 * systemd: SIGTERM, wait for the exit, start again) while signed traffic runs through nginx. Expected: not one failed
 * request, every stopped process exiting 0, and the API seeing the client's own address.
 */

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'].find((path) => existsSync(path));
const HAS_CURL = spawnSync('curl', ['--version']).status === 0;
/** The address the test's client connects to nginx from (any 127.0.0.0/8 address is the loopback on Linux). */
const CLIENT_ADDRESS = '127.0.0.2';
/** What a client claims in its own X-Forwarded-For; the API must not believe it. */
const SPOOFED = '198.51.100.23';
const LOOPS = 4;
const STARTED = Date.now();
/** Progress on stderr (NGINX_RECIPE_VERBOSE=1), to see where a slow run spends its time. */
const progress = (what: string) => {
  if (process.env.NGINX_RECIPE_VERBOSE === '1') process.stderr.write(`[nginx-recipe ${((Date.now() - STARTED) / 1000).toFixed(1)} s] ${what}\n`);
};

const skip = !NGINX
  ? 'nginx is not installed (apt-get install nginx; .ci/run does)'
  : !postgresUrl()
    ? 'no TEST_DATABASE_URL: several processes need PostgreSQL'
    : !HAS_CURL
      ? 'curl is not installed (deploy/rolling-restart.sh uses it)'
      : false;

interface Outcome {
  op: string;
  status: number | undefined;
  expected: number;
  error?: string;
  startedAt: number;
  endedAt: number;
}

/** Polls `condition` until it holds, failing with `what` (and `detail()`) at the deadline. */
async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number, detail: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}. ${detail()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Distinct free ports (freePort may hand out a port twice when asked in a row). */
async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** Log lines of a process that are JSON (pino), parsed. */
function logLines(output: string): { msg?: string; req?: { url?: string; remoteAddress?: string } }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string; remoteAddress?: string } });
}

/** deploy/nginx/integrator-api.conf with this test's ports and access log; each replaced text must be there exactly once. */
function renderSite(apiPorts: number[], listenPort: number, dir: string): string {
  let site = readFileSync(new URL('deploy/nginx/integrator-api.conf', ROOT), 'utf8');
  const replace = (from: string, to: string) => {
    assert.equal(site.split(from).length, 2, `deploy/nginx/integrator-api.conf has "${from}" once`);
    site = site.replace(from, to);
  };
  replace('server 127.0.0.1:8081 ', `server 127.0.0.1:${apiPorts[0]} `);
  replace('server 127.0.0.1:8082 ', `server 127.0.0.1:${apiPorts[1]} `);
  replace('listen 80;', `listen 127.0.0.1:${listenPort};`);
  replace('access_log /var/log/nginx/integrator-api.access.log ', `access_log ${dir}/access.log `);
  return site;
}

/** The parts of Debian's /etc/nginx/nginx.conf the site needs, with every path in `dir` (no root, no /var). */
function mainConfig(dir: string): string {
  return `worker_processes 2;
error_log ${dir}/error.log notice;
events { worker_connections 1024; }
http {
  log_format upstream '$remote_addr "$request" $status upstream=$upstream_addr/$upstream_status $request_time';
  access_log ${dir}/access.log upstream;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/integrator-api.conf;
}
`;
}

describe('the nginx recipe: two API processes and two workers on one PostgreSQL behind nginx', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'iapi-nginx-'));
  // nginx's workers run as nobody when the test runs as root: they must reach their temporary folders.
  chmodSync(dir, 0o755);
  const children: ChildProcess[] = [];
  const servers: http.Server[] = [];
  let drop: (() => Promise<void>) | undefined;

  after(async () => {
    // nginx first: an API process stopping behind it would wait for nginx to close its idle connections.
    const order = [...children.filter((child) => child.spawnfile === NGINX), ...children.filter((child) => child.spawnfile !== NGINX).reverse()];
    for (const child of order) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    for (const server of servers) server.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  function startWorker(env: Record<string, string>): Promise<ChildProcess> {
    const child = spawn(process.execPath, entryPoint('src/worker-main.ts'), { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    return new Promise((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('"msg":"webhook worker ready"')) resolve(child);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${out}`)));
    });
  }

  async function startApi(env: Record<string, string>, port: number): Promise<ServerProcess> {
    const server = await startServerProcess({ ...env, PORT: String(port) });
    children.push(server.child);
    return server;
  }

  it('restarts each API process through deploy/rolling-restart.sh under signed traffic: no failed request, the client address passed through', { timeout: 200_000 }, async () => {
    const provisioned = await provisionDatabase('postgres');
    drop = provisioned.drop;
    if (provisioned.target.kind !== 'postgres') throw new Error('expected postgres');
    const [api1, api2, nginxPort, controlPort] = (await freePorts(4)) as [number, number, number, number];
    const env: Record<string, string> = {
      DATABASE_URL: provisioned.target.url,
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      APP_ENV: 'sandbox',
      DATA_DIR: join(dir, 'data'),
      TRUST_PROXY: '127.0.0.1',
      WEBHOOK_ALLOW_PRIVATE: '1',
      // Every request of the test is one credential's: lift the per-credential limit.
      RATE_LIMIT_MAX: '1000000',
    };
    const apiEnv = { ...env, WEBHOOK_WORKER: '0', LOG_LEVEL: 'info' };

    progress('database provisioned');
    // The processes, as deploy/systemd starts them: two API processes (migrating the fresh database under the
    // advisory lock), then two workers.
    const apis = new Map<number, ServerProcess>();
    const [first, second] = await Promise.all([startApi(apiEnv, api1), startApi(apiEnv, api2)]);
    apis.set(api1, first);
    apis.set(api2, second);
    progress('API processes listening');
    await Promise.all([startWorker({ ...env, LOG_LEVEL: 'info' }), startWorker({ ...env, LOG_LEVEL: 'info' })]);
    progress('workers ready');

    writeFileSync(join(dir, 'integrator-api.conf'), renderSite([api1, api2], nginxPort, dir));
    writeFileSync(join(dir, 'nginx.conf'), mainConfig(dir));
    const nginx = spawn(NGINX!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', `daemon off; pid ${dir}/nginx.pid;`], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(nginx);
    let nginxOutput = '';
    nginx.stdout!.on('data', (c: Buffer) => (nginxOutput += c.toString()));
    nginx.stderr!.on('data', (c: Buffer) => (nginxOutput += c.toString()));
    const nginxLog = () => `${nginxOutput}${existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''}`;
    const base = `http://127.0.0.1:${nginxPort}`;
    await until(
      'nginx to answer',
      async () => {
        if (nginx.exitCode !== null) assert.fail(`nginx exited with ${nginx.exitCode}: ${nginxLog()}`);
        return (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200;
      },
      10_000,
      nginxLog,
    );

    progress('nginx answers');
    // From here on the client connects from CLIENT_ADDRESS: that is the address the API must see.
    setGlobalDispatcher(new Agent({ localAddress: CLIENT_ADDRESS }));
    const created = await runAdmin(['integrators', 'create', '--name', 'Behind nginx'], env);
    assert.equal(created.code, 0, created.stderr);
    const client: Client = createClient({ baseUrl: base, privateKey: JSON.parse(created.stdout).privateKey });
    // An invitation link (its token unknown: the API's 404 page) through nginx: neither log may keep the token.
    const invitationToken = `inv_${randomBytes(32).toString('base64url').slice(0, 43)}`;
    assert.equal((await fetch(`${base}/invitations/${invitationToken}`)).status, 404);
    assert.equal((await fetch(`${base}/INVITATIONS/${invitationToken}/`)).status, 404);

    // The workers' part: every credential created below is a credential.created delivery to this receiver.
    const delivered = new Set<string>();
    const receiver = http.createServer((req, res) => {
      delivered.add(String(req.headers['webhook-id']));
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    servers.push(receiver);
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const subscription = await client.post('/v1/webhooks/subscriptions', {
      name: 'nginx recipe',
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      eventTypes: ['credential.created'],
    });
    assert.equal(subscription.status, 201, subscription.text);

    // systemd's part, for RESTART_COMMAND: stop the process on the port (SIGTERM, wait for its exit), start a new
    // one, answer (as `systemctl restart` returns once the new process is started, not ready).
    const stopped: { port: number; code: number | null; stopMs: number; output: string }[] = [];
    const starting: Promise<ServerProcess>[] = [];
    const control = http.createServer((req, res) => {
      const port = Number(/^\/restart\/(\d+)$/.exec(req.url ?? '')?.[1]);
      const old = apis.get(port);
      if (req.method !== 'POST' || !old) return void res.writeHead(404).end();
      void (async () => {
        const begun = Date.now();
        progress(`stopping ${port}`);
        const code = await old.stop('SIGTERM');
        progress(`${port} exited ${code}`);
        stopped.push({ port, code, stopMs: Date.now() - begun, output: old.logs() });
        const next = startApi(apiEnv, port);
        starting.push(next);
        next.then((server) => apis.set(port, server)).catch(() => {});
        res.end('restarted\n');
      })();
    });
    servers.push(control);
    control.listen(controlPort, '127.0.0.1');
    await once(control, 'listening');

    // The traffic: LOOPS signed clients in a loop (reads, writes with an Idempotency-Key, updates), plus long polls
    // that are in flight whenever a process stops.
    const outcomes: Outcome[] = [];
    let running = true;
    const send = async (op: string, expected: number, request: () => Promise<{ status: number; body: unknown }>): Promise<unknown> => {
      const startedAt = Date.now();
      try {
        const res = await request();
        outcomes.push({ op, status: res.status, expected, startedAt, endedAt: Date.now(), ...(res.status === expected ? {} : { error: JSON.stringify(res.body).slice(0, 300) }) });
        return res.body;
      } catch (err) {
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        outcomes.push({ op, status: undefined, expected, error: `${(err as Error).message}: ${cause?.code ?? cause?.message ?? ''}`, startedAt, endedAt: Date.now() });
        return undefined;
      }
    };
    const loop = async (n: number) => {
      const mine: string[] = [];
      for (let i = 0; running; i++) {
        switch (i % 4) {
          case 0:
            // A client's own X-Forwarded-For: nginx appends the real address, the API must keep to that one.
            await send('whoami', 200, () => client.get('/v1/integrator/whoami', { headers: { 'X-Forwarded-For': SPOOFED } }));
            break;
          case 1: {
            const body = (await send('create credential', 201, () =>
              client.post('/v1/integrator/credentials', { label: `loop ${n} #${i}`, scope: 'read_only' }, { headers: { 'Idempotency-Key': randomUUID() } }),
            )) as { credential?: { publicKey: string } } | undefined;
            if (body?.credential) mine.push(body.credential.publicKey);
            break;
          }
          case 2:
            if (mine.length > 0) await send('update credential', 200, () => client.patch(`/v1/integrator/credentials/${mine[mine.length - 1]}`, { label: `loop ${n} #${i} renamed` }));
            break;
          default:
            await send('list events', 200, () => client.get('/v1/events?limit=5'));
        }
      }
    };
    const longPolls = async () => {
      while (running) await send('long poll', 200, () => client.get('/v1/events?order=asc&type=user.created&waitSeconds=2'));
    };
    const traffic = Promise.all([...Array.from({ length: LOOPS }, (_, n) => loop(n)), longPolls()]);
    await until('traffic to flow', () => outcomes.length >= 40, 20_000, () => JSON.stringify(outcomes.slice(-5)));

    progress('traffic flows');
    const restartBegun = Date.now();
    const script = spawn('bash', [new URL('deploy/rolling-restart.sh', ROOT).pathname, String(api1), String(api2)], {
      cwd: ROOT,
      env: { ...process.env, RESTART_COMMAND: `curl -fsS --max-time 60 -X POST http://127.0.0.1:${controlPort}/restart/{port}`, READY_TIMEOUT: '60' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(script);
    let scriptOutput = '';
    script.stdout.on('data', (c: Buffer) => (scriptOutput += c.toString()));
    script.stderr.on('data', (c: Buffer) => (scriptOutput += c.toString()));
    const [scriptCode] = (await once(script, 'exit')) as [number | null];
    const restartEnded = Date.now();
    progress(`rolling restart done (exit ${scriptCode})`);
    // A little traffic on the restarted pair before stopping.
    const afterRestart = outcomes.length;
    await until('traffic after the restarts', () => outcomes.length >= afterRestart + 40, 20_000);
    running = false;
    await traffic;

    progress('traffic stopped');
    assert.equal(scriptCode, 0, scriptOutput);
    const failed = outcomes.filter((o) => o.status !== o.expected);
    const during = outcomes.filter((o) => o.startedAt >= restartBegun && o.endedAt <= restartEnded);
    const ops = Object.fromEntries([...new Set(during.map((o) => o.op))].map((op) => [op, during.filter((o) => o.op === op).length]));
    // nginx's side: connections refused by a stopping process, and the requests it therefore sent to the other one.
    const refusedConnects = (nginxLog().match(/Connection refused/g) ?? []).length;
    const retried = readFileSync(join(dir, 'access.log'), 'utf8')
      .split('\n')
      .filter((line) => / upstream=\S+, /.test(line)).length;
    console.log(
      `# nginx: ${refusedConnects} connections refused, ${retried} requests passed to the other process\n` +
      `# ${outcomes.length} requests through nginx, ${during.length} of them during the rolling restart (${restartEnded - restartBegun} ms: ${JSON.stringify(ops)}), ${failed.length} failed; ` +
        `stops: ${stopped.map((s) => `${s.port} exit ${s.code} after ${s.stopMs} ms`).join(', ')}\n# ${scriptOutput.trim().split('\n').join('\n# ')}`,
    );
    assert.deepEqual(failed, [], `failed requests; nginx: ${nginxLog().slice(-3000)}`);
    assert.ok(during.length >= 100, `only ${during.length} requests during the restart`);
    assert.ok(during.some((o) => o.op === 'long poll') && during.some((o) => o.op === 'create credential'));

    // Each process stopped by itself, at once, having drained, and exited 0.
    assert.deepEqual(
      stopped.map((s) => [s.port, s.code]),
      [
        [api1, 0],
        [api2, 0],
      ],
    );
    for (const s of stopped) assert.match(s.output, /"msg":"connections drained"/, `port ${s.port}`);
    const restarted = await Promise.all(starting);

    // The client's address, as nginx saw it, is the one every API process logged for every request nginx passed on
    // (not nginx's 127.0.0.1, not the address the client wrote). /readyz comes from the restart script, directly.
    const processes = [...stopped.map((s) => s.output), ...restarted.map((s) => s.logs())];
    const addresses = new Set(
      processes.flatMap((output) => logLines(output).filter((line) => line.msg === 'incoming request' && line.req?.url !== '/readyz').map((line) => line.req?.remoteAddress)),
    );
    assert.deepEqual([...addresses], [CLIENT_ADDRESS]);
    const accessLog = readFileSync(join(dir, 'access.log'), 'utf8');
    assert.match(accessLog, /"GET \/invitations\/\[redacted\] HTTP\/1\.1" 404 /);
    for (const output of [accessLog, ...processes]) assert.ok(!output.includes(invitationToken.slice(4)), 'no log keeps an invitation token');
    for (const server of restarted) {
      assert.ok(
        logLines(server.logs()).some((line) => line.msg === 'incoming request' && line.req?.url?.startsWith('/v1/')),
        `nginx sent requests to the restarted process on ${new URL(server.url).port}`,
      );
    }

    // And the workers delivered a credential.created for every credential created, restarts or not.
    const creates = outcomes.filter((o) => o.op === 'create credential' && o.status === 201).length;
    await until('every credential.created delivered', () => delivered.size >= creates, 30_000, () => `${delivered.size} of ${creates}`);
  });
});

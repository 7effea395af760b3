import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startServer, type SeededIntegrator, type TestServer } from '../harness/server.js';
import { ROOT } from '../harness/root.js';

/*
 * @integrator-api/sdk as an integrator gets it: `npm pack` (its prepack builds dist/), the tarball installed into a
 * new project under the OS's temporary folder (nothing of this repository on its resolution path), a strict program
 * type-checked and compiled by that project's own tsc, then run against a real server, and `npx integrator whoami`.
 * About a minute: the build (~12 s), the install from npm's cache (typescript, @types/node, @noble/*), the server.
 */
const run = promisify(execFile);
const rootDev = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
// A fresh terminal: none of the test runner's npm variables (npm test sets npm_config_*), nor this process's keys.
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|^INTEGRATOR_|^NODE_OPTIONS$/.test(k)));

// A strict program against the package's types (a wrong call would not compile), doing a signed GET, POST and list.
const PROGRAM = `import { createIntegratorClient, generateSigningKey, IntegratorApiError, type components } from '@integrator-api/sdk';

const api = createIntegratorClient({ baseUrl: process.env.INTEGRATOR_BASE_URL!, privateKey: process.env.INTEGRATOR_PRIVATE_KEY! });
const me = await api.whoami();
const scope: components['schemas']['Credential']['scope'] = me.scope;
// @ts-expect-error the body's scope is one of two words
await api.createCredential({ body: { label: 'never sent', scope: 'admin' } }).catch(() => undefined);
const created = await api.createCredential({ body: { label: 'from the packed SDK', scope: 'read_only' } });
const { credentials } = await api.listCredentials();
let missing = 0;
try {
  await api.updateCredential({ path: { pubkey: generateSigningKey().publicKey }, body: { active: false } });
} catch (err) {
  if (err instanceof IntegratorApiError) missing = err.status;
}
console.log(JSON.stringify({ integratorId: me.integratorId, scope, created: created.credential.publicKey, labels: credentials.map((c) => c.label), missing }));
`;

describe('the packed SDK, installed outside the repository', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-pack-'));
  const project = join(dir, 'project');
  let server: TestServer;
  let acme: SeededIntegrator;
  let packed: { filename: string; size: number; files: { path: string; mode: number }[] };

  before(async () => {
    const pack = run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: join(ROOT, 'packages/sdk'), env: cleanEnv, maxBuffer: 16 << 20 });
    server = await startServer('pglite');
    acme = await server.seedIntegrator('Acme');
    const { stdout } = await pack;
    // Lifecycle lines may come before npm's JSON: it starts at the line holding only "[".
    packed = (JSON.parse(stdout.slice(stdout.search(/^\[$/m))) as (typeof packed)[])[0]!;
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('npm pack builds the package: the compiled modules, their types and the bin', () => {
    const paths = packed.files.map((f) => f.path);
    for (const file of ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/client.js', 'dist/client.d.ts', 'dist/generated/openapi.d.ts', 'dist/cli.js']) {
      assert.ok(paths.includes(file), `${file} is packed: ${paths.join(', ')}`);
    }
    assert.ok(paths.every((p) => p.startsWith('dist/') || ['package.json', 'README.md'].includes(p)), 'nothing but dist/, package.json and the README');
    assert.equal(packed.files.find((f) => f.path === 'dist/cli.js')!.mode & 0o111, 0o111, 'the bin is executable');
  });

  it('installs into a project of its own, type-checks a strict program and drives the server; npx integrator whoami', { timeout: 300_000 }, async () => {
    await run('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }));
    const tsconfig = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, types: ['node'], outDir: 'out' }, include: ['main.ts'] };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    writeFileSync(join(project, 'main.ts'), PROGRAM);
    const deps = [join(dir, packed.filename), `@types/node@${rootDev['@types/node']}`, `typescript@${rootDev.typescript}`];
    await run('npm', ['install', ...deps, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: project, env: cleanEnv });

    const installed = join(project, 'node_modules/@integrator-api/sdk');
    assert.equal(realpathSync(installed), installed, 'a copy from the tarball, not a link into the repository');
    assert.ok(existsSync(join(installed, 'dist/index.d.ts')));
    assert.match(readFileSync(join(installed, 'dist/cli.js'), 'utf8'), /^#!\/usr\/bin\/env node\n/, 'the bin keeps its shebang');
    assert.equal(statSync(join(installed, 'dist/cli.js')).mode & 0o111, 0o111);

    // The project's own tsc (not the repository's) checks and compiles the program; a type error fails here.
    await run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project, env: cleanEnv }).catch((err: { stdout: string }) => assert.fail(`tsc:\n${err.stdout}`));

    const env = { ...cleanEnv, INTEGRATOR_BASE_URL: server.url, INTEGRATOR_PRIVATE_KEY: acme.privateKey, INTEGRATOR_PROFILE: join(project, 'no-profile.json') };
    const flow = JSON.parse((await run(process.execPath, ['out/main.js'], { cwd: project, env })).stdout) as Record<string, unknown>;
    assert.equal(flow.integratorId, acme.integratorId);
    assert.equal(flow.scope, 'read_write');
    assert.match(String(flow.created), /^0x0[23][0-9a-f]{64}$/);
    assert.ok((flow.labels as string[]).includes('from the packed SDK'));
    assert.equal(flow.missing, 404);

    // --no: the project's bin or nothing (never a package named "integrator" fetched from the registry).
    const whoami = JSON.parse((await run('npx', ['--no', 'integrator', 'whoami'], { cwd: project, env })).stdout) as { integratorId: string; publicKey: string };
    assert.equal(whoami.integratorId, acme.integratorId);
    assert.equal(whoami.publicKey, acme.publicKey);
  });
});

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
 * Both module systems: the package's ESM and CommonJS builds are imported and required from plain .mjs and .cjs files,
 * and a .mts and a .cts file are type-checked, compiled and run (a .cts used to compile, then crash on require).
 * docs/sdk.md's size and file count of the tarball are checked against `npm pack --dry-run --json`.
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

// The same client from each module system: a signed whoami, and the typed error on a 404.
const CALLS = `const api = createIntegratorClient({ baseUrl: process.env.INTEGRATOR_BASE_URL!, privateKey: process.env.INTEGRATOR_PRIVATE_KEY! });
  const me = await api.whoami();
  const scope: components['schemas']['Credential']['scope'] = me.scope;
  // @ts-expect-error the body's scope is one of two words: the types are the package's, not any
  await api.createCredential({ body: { label: 'never sent', scope: 'admin' } }).catch(() => undefined);
  const status = await api.updateCredential({ path: { pubkey: generateSigningKey().publicKey }, body: { active: false } }).then(() => 0, (err: unknown) => (err instanceof IntegratorApiError ? err.status : -1));`;
const IMPORTS = `import { createIntegratorClient, generateSigningKey, IntegratorApiError, type components } from '@integrator-api/sdk';`;
const MODULES: Record<string, string> = {
  // tsc compiles a .cts's imports to require() calls, resolved with the package's "require" condition (index.d.cts).
  'typed.cts': `${IMPORTS}\nasync function main() {\n  ${CALLS}\n  console.log(JSON.stringify({ integratorId: me.integratorId, scope, status, entry: require.resolve('@integrator-api/sdk') }));\n}\nvoid main();\n`,
  'typed.mts': `${IMPORTS}\n{\n  ${CALLS}\n  console.log(JSON.stringify({ integratorId: me.integratorId, scope, status, entry: import.meta.resolve('@integrator-api/sdk') }));\n}\n`,
};
// Plain JavaScript, as a project without TypeScript writes it.
const PLAIN: Record<string, string> = {
  'plain.cjs': `const { createIntegratorClient, IntegratorApiError, verifyWebhook } = require('@integrator-api/sdk');
createIntegratorClient({ baseUrl: process.env.INTEGRATOR_BASE_URL, privateKey: process.env.INTEGRATOR_PRIVATE_KEY }).whoami().then((me) =>
  console.log(JSON.stringify({ integratorId: me.integratorId, status: typeof IntegratorApiError === 'function' && typeof verifyWebhook === 'function' ? 0 : -1, entry: require.resolve('@integrator-api/sdk') })));
`,
  'plain.mjs': `import { createIntegratorClient, IntegratorApiError, verifyWebhook } from '@integrator-api/sdk';
const me = await createIntegratorClient({ baseUrl: process.env.INTEGRATOR_BASE_URL, privateKey: process.env.INTEGRATOR_PRIVATE_KEY }).whoami();
console.log(JSON.stringify({ integratorId: me.integratorId, status: typeof IntegratorApiError === 'function' && typeof verifyWebhook === 'function' ? 0 : -1, entry: import.meta.resolve('@integrator-api/sdk') }));
`,
};

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
    const both = ['index', 'client', 'errors', 'signing', 'webhooks', 'transactions', 'stamps', 'generated/operations'].flatMap((m) => [`dist/${m}.js`, `dist/${m}.d.ts`, `dist/${m}.cjs`, `dist/${m}.d.cts`]);
    for (const file of ['package.json', 'README.md', ...both, 'dist/generated/openapi.d.ts', 'dist/generated/openapi.d.cts', 'dist/cli.js']) {
      assert.ok(paths.includes(file), `${file} is packed: ${paths.join(', ')}`);
    }
    assert.ok(paths.every((p) => p.startsWith('dist/') || ['package.json', 'README.md'].includes(p)), 'nothing but dist/, package.json and the README');
    assert.equal(packed.files.find((f) => f.path === 'dist/cli.js')!.mode & 0o111, 0o111, 'the bin is executable');
    assert.deepEqual(paths.filter((p) => /\/cli[.-].*\.(cjs|d\.cts)$/.test(p)), [], 'the CLI is ESM only: the bin is its one entry');
  });

  it('docs/sdk.md gives the tarball’s size (within 10 %) and its file count (exactly) as npm pack --dry-run reports them', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: join(ROOT, 'packages/sdk'), env: cleanEnv, maxBuffer: 16 << 20 });
    const dry = (JSON.parse(stdout.slice(stdout.search(/^\[$/m))) as (typeof packed & { entryCount: number })[])[0]!;
    assert.equal(dry.entryCount, packed.files.length, 'the dry run lists what npm pack packed');
    const said = /integrator-api-sdk-[\d.]+\.tgz \(about (\d+) kB, (\d+) files\)/.exec(readFileSync(join(ROOT, 'docs/sdk.md'), 'utf8'));
    assert.ok(said, 'docs/sdk.md says "(about N kB, M files)" beside npm pack');
    assert.equal(Number(said[2]), dry.entryCount, `docs/sdk.md's file count: npm pack --dry-run --json says ${dry.entryCount}`);
    const kB = dry.size / 1000;
    assert.ok(Math.abs(Number(said[1]) - kB) <= kB * 0.1, `docs/sdk.md's size, ${said[1]} kB, is within 10 % of npm's ${kB.toFixed(1)} kB`);
  });

  it('installs into a project of its own, type-checks a strict program and drives the server; npx integrator whoami', { timeout: 300_000 }, async () => {
    await run('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }));
    const tsconfig = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, types: ['node'], outDir: 'out' }, include: ['main.ts', ...Object.keys(MODULES)] };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    writeFileSync(join(project, 'main.ts'), PROGRAM);
    for (const [name, text] of Object.entries({ ...MODULES, ...PLAIN })) writeFileSync(join(project, name), text);
    const deps = [join(dir, packed.filename), `@types/node@${rootDev['@types/node']}`, `typescript@${rootDev.typescript}`];
    await run('npm', ['install', ...deps, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: project, env: cleanEnv });

    const installed = join(project, 'node_modules/@integrator-api/sdk');
    assert.equal(realpathSync(installed), installed, 'a copy from the tarball, not a link into the repository');
    assert.ok(existsSync(join(installed, 'dist/index.d.ts')));
    assert.match(readFileSync(join(installed, 'dist/cli.js'), 'utf8'), /^#!\/usr\/bin\/env node\n/, 'the bin keeps its shebang');
    assert.equal(statSync(join(installed, 'dist/cli.js')).mode & 0o111, 0o111);

    // The project's own tsc (not the repository's) checks and compiles the programs; a type error fails here.
    const tsc = await run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', project, '--listFiles'], { cwd: project, env: cleanEnv }).catch((err: { stdout: string }) => assert.fail(`tsc:\n${err.stdout}`));
    for (const types of ['index.d.ts', 'index.d.cts']) assert.ok(tsc.stdout.includes(join(installed, 'dist', types)), `tsc read ${types}: the .mts's types and the .cts's`);

    const env = { ...cleanEnv, INTEGRATOR_BASE_URL: server.url, INTEGRATOR_PRIVATE_KEY: acme.privateKey, INTEGRATOR_PROFILE: join(project, 'no-profile.json') };
    const flow = JSON.parse((await run(process.execPath, ['out/main.js'], { cwd: project, env })).stdout) as Record<string, unknown>;
    assert.equal(flow.integratorId, acme.integratorId);
    assert.equal(flow.scope, 'read_write');
    assert.match(String(flow.created), /^0x0[23][0-9a-f]{64}$/);
    assert.ok((flow.labels as string[]).includes('from the packed SDK'));
    assert.equal(flow.missing, 404);

    // Each module system gets its own entry: the ESM build for import, the CommonJS one for require.
    const entries: Record<string, string> = { 'out/typed.cjs': 'dist/index.cjs', 'out/typed.mjs': 'dist/index.js', 'plain.cjs': 'dist/index.cjs', 'plain.mjs': 'dist/index.js' };
    for (const [file, entry] of Object.entries(entries)) {
      const answer = await run(process.execPath, [file], { cwd: project, env }).catch((err: { stderr: string }) => assert.fail(`${file}:\n${err.stderr}`));
      const got = JSON.parse(answer.stdout) as { integratorId: string; status: number; entry: string };
      assert.equal(got.integratorId, acme.integratorId, file);
      assert.equal(got.status, file.startsWith('out/') ? 404 : 0, file);
      assert.ok(got.entry.endsWith(`node_modules/@integrator-api/sdk/${entry}`), `${file} loads ${entry}: ${got.entry}`);
    }

    // After `--`: npx's own --version would answer otherwise.
    const version = await run('npx', ['--no', '--', 'integrator', '--version'], { cwd: project, env });
    assert.equal(version.stdout, `${(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string }).version}\n`, 'the bin reads its own package.json');

    // --no: the project's bin or nothing (never a package named "integrator" fetched from the registry).
    const whoami = JSON.parse((await run('npx', ['--no', 'integrator', 'whoami'], { cwd: project, env })).stdout) as { integratorId: string; publicKey: string };
    assert.equal(whoami.integratorId, acme.integratorId);
    assert.equal(whoami.publicKey, acme.publicKey);
  });
});

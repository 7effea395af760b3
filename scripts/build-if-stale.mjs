#!/usr/bin/env node
// Builds dist/ (the server: tsc; the admin console: vite; the embedded database's template: scripts/build-pglite-template.mjs)
// only when a source changed since the last build, so `npm start` and `npm run worker` start at once on an unchanged
// tree. "Changed" is make's rule: a file under src/, web/admin/ or drizzle/, or the lockfile, package.json or a
// tsconfig, newer than the stamp the last build wrote, or a different number of them (a file deleted or added).
// `npm run build` (--force) always rebuilds. The three run side by side (tsc keeps one core, the others share the
// second), and the build says what it is doing at its start and every 10 s until it ends (a first build on a busy
// machine took 88 s and printed one line at its end).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { templateKey, TEMPLATE_DIR } from './build-pglite-template.mjs';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const STAMP = join(ROOT, 'dist/.build-stamp.json');
const CONSOLE_OUT = join(ROOT, 'dist/admin-console');
const OUTPUTS = [join(ROOT, 'dist/src/main.js'), join(ROOT, 'dist/src/worker-main.js'), join(CONSOLE_OUT, 'index.html')];

/** The newest modification time and the number of the files a build reads. */
export function sourceState() {
  const files = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'].map((f) => join(ROOT, f));
  for (const dir of ['src', 'web/admin', 'drizzle']) {
    for (const entry of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(join(entry.parentPath ?? entry.path, entry.name));
    }
  }
  return { newest: Math.max(...files.map((f) => statSync(f).mtimeMs)), count: files.length };
}

export function isStale() {
  if (!existsSync(STAMP) || OUTPUTS.some((f) => !existsSync(f))) return true;
  const built = JSON.parse(readFileSync(STAMP, 'utf8'));
  const now = sourceState();
  return now.newest > built.newest || now.count !== built.count;
}

/**
 * The console into a fresh folder, swapped in: a server starting meanwhile (another `npm test` in the same tree)
 * sees the old build or the new one, never a half-written one.
 */
async function buildConsole() {
  const { build } = await import('vite');
  const staging = join(ROOT, `dist/.admin-console-${process.pid}`);
  await build({ configFile: join(ROOT, 'web/admin/vite.config.ts'), logLevel: 'warn', build: { outDir: staging, emptyOutDir: true } });
  rmSync(CONSOLE_OUT, { recursive: true, force: true });
  try {
    renameSync(staging, CONSOLE_OUT);
  } catch (err) {
    // Another run swapped its identical build in first: keep that one.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(CONSOLE_OUT, 'index.html'))) throw err;
  }
}

/** A node script in a child process (its output on this one's stderr); resolves to its exit code. */
async function runNode(args) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], cwd: ROOT });
  const [code] = await once(child, 'exit');
  return code;
}

/** Whether dist/pglite-template/ was made from the migrations and PGlite of this tree. */
function templateIsCurrent() {
  try {
    return readFileSync(join(TEMPLATE_DIR, 'key'), 'utf8').trim() === templateKey();
  } catch {
    return false;
  }
}

/** Builds when stale; returns whether dist/ is usable (false: tsc failed, its errors printed). */
export async function buildIfStale({ quiet = false, force = false } = {}) {
  if (!force && !isStale()) {
    if (!quiet) console.error('build: dist/ is up to date');
    return true;
  }
  const say = (line) => quiet || console.error(`build: ${line}`);
  const state = sourceState();
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(0);
  const running = new Set();
  const task = async (name, run) => {
    running.add(name);
    try {
      return await run();
    } finally {
      running.delete(name);
    }
  };
  const tasks = ['compiling the server (tsc)', 'building the admin console (vite)'];
  const template = force || !templateIsCurrent();
  if (template) tasks.push('preparing the embedded database (initdb and migrations, once for these migrations)');
  say(`${tasks.join('; ')}; a line every 10 s until done`);
  const heartbeat = setInterval(() => say(`${seconds()} s, still ${[...running].join('; ')}`), 10_000);
  try {
    const [tsc, , templateCode] = await Promise.all([
      task('compiling the server (tsc)', () => runNode([join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')])),
      // The console builds on its own (its own sources and tsconfig): a server that does not compile still gets it.
      task('building the admin console (vite)', buildConsole),
      template ? task('preparing the embedded database', () => runNode([join(ROOT, 'scripts/build-pglite-template.mjs')])) : 0,
    ]);
    // No template is no failure: a first start then initialises the database itself, as it did before there was one.
    if (templateCode !== 0) say('the embedded database template was not made: a first start will run initdb and the migrations itself');
    if (tsc !== 0) return false;
  } finally {
    clearInterval(heartbeat);
  }
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  writeFileSync(STAMP, JSON.stringify(state));
  say(`dist/ built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!(await buildIfStale({ force: process.argv.includes('--force') }))) process.exit(1);
}

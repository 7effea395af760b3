#!/usr/bin/env node
// Builds packages/sdk/dist: run by `prepack` (so `npm pack` and `npm publish` ship the built package) and by the
// repository's `prepare` (so `@integrator-api/sdk` resolves after `npm ci`). It compiles with the repository's
// TypeScript into a staging folder and swaps it in, so a process importing the package meanwhile (a test, a
// quickstart script) sees the old build or the new one, never a half-written one. No source maps: the package ships
// dist/ only, and maps would point to sources it does not hold.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SDK = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DIST = join(SDK, 'dist');
const staging = join(SDK, `.build-${process.pid}`);
const old = join(SDK, `.build-old-${process.pid}`);

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', join(SDK, 'tsconfig.json'), '--outDir', staging, '--sourceMap', 'false'], { stdio: 'inherit' });
if (result.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  process.exit(result.status ?? 1);
}
// The bin keeps its shebang (tsc copies it); executable for `./node_modules/.bin/integrator` and a direct run.
chmodSync(join(staging, 'cli.js'), 0o755);
if (existsSync(DIST)) renameSync(DIST, old);
renameSync(staging, DIST);
rmSync(old, { recursive: true, force: true });

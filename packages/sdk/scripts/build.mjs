#!/usr/bin/env node
// Builds packages/sdk/dist: run by `prepack` (so `npm pack` and `npm publish` ship the built package) and by the
// repository's `prepare` (so `@integrator-api/sdk` resolves after `npm ci`). It compiles with the repository's
// TypeScript into a staging folder and swaps it in, so a process importing the package meanwhile (a test, a
// quickstart script) sees the old build or the new one, never a half-written one. No source maps: the package ships
// dist/ only, and maps would point to sources it does not hold.
//
// The library also ships as CommonJS, for `require('@integrator-api/sdk')` and a `.cts` file (package.json's
// `exports` send `require` there): each library module beside its ESM build as `.cjs`, with its declarations as
// `.d.cts`. The ESM compile above type-checks everything, so the CommonJS modules are only transpiled (a second
// program would double the build's time); the CLI (cli*.ts) is the bin's alone and stays ESM.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SDK = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DIST = join(SDK, 'dist');
const staging = join(SDK, `.build-${process.pid}`);
const old = join(SDK, `.build-old-${process.pid}`);

const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', join(SDK, 'tsconfig.json'), '--outDir', staging, '--sourceMap', 'false'], { stdio: 'inherit' });
if (result.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  process.exit(result.status ?? 1);
}
try {
  emitCommonJs(join(SDK, 'src'), staging);
} catch (err) {
  rmSync(staging, { recursive: true, force: true });
  throw err;
}
// The bin keeps its shebang (tsc copies it); executable for `./node_modules/.bin/integrator` and a direct run.
chmodSync(join(staging, 'cli.js'), 0o755);
if (existsSync(DIST)) renameSync(DIST, old);
renameSync(staging, DIST);
rmSync(old, { recursive: true, force: true });

/** Every file under `dir`, recursively. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

/** `./client.js` -> `./client.cjs` in relative import, export, require and import() specifiers; packages untouched. */
function toCjsSpecifiers(text) {
  return text.replace(/((?:from|import\(|require\()\s*['"])(\.{1,2}\/[^'"]+)\.js(['"])/g, '$1$2.cjs$3');
}

/** The library's modules as CommonJS (`.cjs`) and their declarations as `.d.cts`, beside the ESM ones in `out`. */
function emitCommonJs(src, out) {
  const ts = require('typescript');
  // The CLI is cli.ts and cli-*.ts (client.ts is the library's).
  const library = (file) => !/^cli[.-]/.test(basename(file));
  for (const file of filesUnder(src).filter((f) => f.endsWith('.ts') && library(f))) {
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, sourceMap: false },
    });
    writeFileSync(join(out, relative(src, file)).replace(/\.ts$/, '.cjs'), toCjsSpecifiers(outputText));
  }
  for (const file of filesUnder(out).filter((f) => f.endsWith('.d.ts') && library(f))) {
    writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), toCjsSpecifiers(readFileSync(file, 'utf8')));
  }
  // Every relative specifier of the CommonJS tree names a file of that tree (not the ESM build, nor the CLI's).
  for (const file of filesUnder(out).filter((f) => /\.(cjs|d\.cts)$/.test(f))) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import\(|require\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = join(dirname(file), specifier.replace(/\.cjs$/, file.endsWith('.cjs') ? '.cjs' : '.d.cts'));
      if (!/\.cjs$/.test(specifier) || !existsSync(target)) throw new Error(`CommonJS build: ${relative(out, file)} refers to ${specifier}, not a module of the CommonJS build`);
    }
  }
}

// Compiles the tests (and the bench, scripts and SDK sources they import) into dist/, beside the server tsc built
// there, so that `npm test` runs plain JavaScript: under tsx every test process spent seconds of CPU in its loader
// hooks and transforms (docs/architecture.md#tests). esbuild only strips types, as tsx does; CI type-checks first.
// dist/test/x.test.js imports ../src/y.js as test/x.test.ts imports ../src/y.ts, so relative imports hold, except
// those of a file that is not TypeScript (scripts/build-contracts.mjs): those are pointed back at the file itself.
// A file is written only when its content changed, by rename, so a test process starting meanwhile reads whole files.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './build-if-stale.mjs';

const SOURCES = ['test', 'bench', 'scripts', 'packages/sdk/src'];
const OUT = join(ROOT, 'dist');

const typescriptUnder = (dir) =>
  readdirSync(join(ROOT, dir), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.split(sep).includes('node_modules'))
    .map((f) => join(dir, f));

/** Points a relative import of a file that is not compiled here (an .mjs, a .json) at that file in the tree. */
function pointAtTree(code, sourceFile, outFile) {
  return code.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]+)\2/g, (whole, lead, quote, spec) => {
    const target = resolve(ROOT, dirname(sourceFile), spec);
    if (!existsSync(target) || (target.endsWith('.js') && existsSync(target.replace(/\.js$/, '.ts')))) return whole;
    let moved = relative(dirname(outFile), target).split(sep).join('/');
    if (!moved.startsWith('.')) moved = `./${moved}`;
    return `${lead}${quote}${moved}${quote}`;
  });
}

function writeIfChanged(file, text) {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  mkdirSync(dirname(file), { recursive: true });
  const staging = `${file}.${process.pid}.tmp`;
  writeFileSync(staging, text);
  renameSync(staging, file);
  return true;
}

/** Compiles; returns how many files changed. */
export async function buildTests() {
  const sources = SOURCES.flatMap(typescriptUnder);
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: sources,
    outbase: '.',
    outdir: 'dist',
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    write: false,
    logLevel: 'error',
  });
  const bySource = new Map(sources.map((s) => [join(OUT, s.replace(/\.ts$/, '.js')), s]));
  let changed = 0;
  const expected = new Set();
  for (const output of result.outputFiles) {
    expected.add(output.path);
    const source = bySource.get(output.path);
    const text = source === undefined ? output.text : pointAtTree(output.text, source, output.path);
    if (writeIfChanged(output.path, text)) changed++;
  }
  // A deleted test leaves no compiled copy behind for a stale import to find.
  for (const dir of SOURCES) {
    const out = join(OUT, dir);
    if (!existsSync(out)) continue;
    for (const f of readdirSync(out, { recursive: true }).map(String)) {
      const file = join(out, f);
      if (/\.js(\.map)?$/.test(f) && !expected.has(file)) rmSync(file, { force: true });
    }
  }
  return changed;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const changed = await buildTests();
  console.error(`build-tests: ${changed} file(s) written in ${Date.now() - started} ms`);
}

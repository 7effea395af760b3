import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { ROOT_URL } from './harness/root.js';

/**
 * The house limits (docs/architecture.md#how-we-keep-the-house) hold only while the lint configuration says them:
 * this lints files laid out like the project's, in a folder of their own (nothing is written into the tree the other
 * tests build from), with the project's own eslint.config.js, and expects the limits refused at the line they draw.
 */
const CONFIG = fileURLToPath(new URL('eslint.config.js', ROOT_URL));
const tree = mkdtempSync(join(tmpdir(), 'iapi-lint-'));
after(() => rmSync(tree, { recursive: true, force: true }));
const eslint = new ESLint({ cwd: tree, overrideConfigFile: CONFIG });

function write(path: string, text: string): string {
  const file = join(tree, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

async function rulesBroken(file: string): Promise<string[]> {
  const [result] = await eslint.lintFiles([file]);
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

/** `n` lines of code, with blank lines and comments between them that must not count. */
const linesOfCode = (n: number) =>
  Array.from({ length: n }, (_, i) => `export const v${i} = ${i};\n${i % 10 === 0 ? '\n// a comment, not counted\n/* nor this */\n' : ''}`).join('');

describe('the lint configuration keeps the house limits', () => {
  for (const dir of ['src/domain', 'web/admin/src', 'packages/sdk/src', 'scripts', 'bench', 'bench/lib']) {
    it(`refuses a file of 261 lines of code in ${dir}/ and takes one of 260 (blank lines and comments not counted)`, async () => {
      assert.deepEqual(await rulesBroken(write(`${dir}/at-limit.ts`, linesOfCode(260))), []);
      assert.deepEqual(await rulesBroken(write(`${dir}/over-limit.ts`, linesOfCode(261))), ['max-lines']);
    });
  }

  it('refuses a static import of a library loaded on first use in src/, and takes its types', async () => {
    for (const name of ['undici', 'ioredis', 'pinyin-pro', 'fast-xml-parser', '@marcbachmann/cel-js']) {
      assert.deepEqual(await rulesBroken(write('src/workers/eager.ts', `import * as lib from '${name}';\nexport const x = lib;\n`)), ['@typescript-eslint/no-restricted-imports'], name);
      assert.deepEqual(await rulesBroken(write('src/workers/typed.ts', `import type * as Lib from '${name}';\nexport type X = typeof Lib;\n`)), [], name);
    }
  });

  it('refuses an import cycle in src/, through .js specifiers of .ts files, and takes the same imports without the cycle', async () => {
    write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['src'] }));
    const a = write('src/domain/a.ts', "import { b } from '../db/b.js';\nexport const a = () => b();\n");
    write('src/db/b.ts', "import { c } from './c.js';\nexport const b = () => c;\n");
    write('src/db/c.ts', "import { a } from '../domain/a.js';\nexport const c = a;\n");
    assert.deepEqual(await rulesBroken(a), ['import-x/no-cycle']);
    write('src/db/c.ts', 'export const c = 1;\n');
    assert.deepEqual(await rulesBroken(a), []);
  });
});

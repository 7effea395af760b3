import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { copyPgliteTemplate, templateKey } from '../../src/db/pglite-template.js';
import { ROOT_URL } from '../harness/root.js';

test('the server and the build compute the same template key from drizzle/ and PGlite\'s version', async () => {
  // @ts-expect-error: a JavaScript module of the build, without declarations
  const build = (await import('../../scripts/build-pglite-template.mjs')) as { templateKey: () => string };
  assert.equal(templateKey(fileURLToPath(new URL('drizzle', ROOT_URL))), build.templateKey());
});

test('a template is copied in whole through a folder renamed into place, every mode the user\'s alone', () => {
  const root = mkdtempSync(join(tmpdir(), 'iapi-template-'));
  try {
    const template = join(root, 'template');
    mkdirSync(join(template, 'base'), { recursive: true, mode: 0o755 });
    writeFileSync(join(template, 'PG_VERSION'), '17\n', { mode: 0o644 });
    writeFileSync(join(template, 'base', '1'), 'x', { mode: 0o666 });
    const dir = join(root, 'data', 'pglite');
    mkdirSync(dir, { recursive: true });
    copyPgliteTemplate(template, dir);
    assert.deepEqual(readdirSync(join(root, 'data')), ['pglite']);
    for (const path of [dir, join(dir, 'PG_VERSION'), join(dir, 'base'), join(dir, 'base', '1')]) assert.equal(statSync(path).mode & 0o077, 0, path);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

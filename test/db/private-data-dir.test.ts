import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { narrowDataDir } from '../../src/db/private-data-dir.js';

// The start-up walk over DATA_DIR (docs/security.md#files-on-disk); the processes' own test is test/process/data-dir-modes.test.ts.
const root = mkdtempSync(join(tmpdir(), 'narrow-'));
after(() => rmSync(root, { recursive: true, force: true }));
const mode = (path: string) => statSync(path).mode & 0o7777;

it('takes group and other bits from every directory and file, keeps the owner’s, and counts what it changed', () => {
  const dir = join(root, 'data');
  mkdirSync(join(dir, 'pglite/pg_wal'), { recursive: true });
  writeFileSync(join(dir, 'pglite/pg_wal/000000010000000000000001'), 'wal');
  writeFileSync(join(dir, 'encryption.key'), 'key');
  writeFileSync(join(dir, 'LOCK'), '1');
  chmodSync(join(dir, 'pglite/pg_wal/000000010000000000000001'), 0o666);
  chmodSync(join(dir, 'encryption.key'), 0o600);
  chmodSync(join(dir, 'LOCK'), 0o444);
  for (const d of [dir, join(dir, 'pglite'), join(dir, 'pglite/pg_wal')]) chmodSync(d, 0o755);

  assert.deepEqual(narrowDataDir(dir), { directories: 3, files: 2 });
  assert.deepEqual([dir, join(dir, 'pglite'), join(dir, 'pglite/pg_wal')].map(mode), [0o700, 0o700, 0o700]);
  assert.equal(mode(join(dir, 'pglite/pg_wal/000000010000000000000001')), 0o600);
  assert.equal(mode(join(dir, 'encryption.key')), 0o600, 'already private: untouched');
  assert.equal(mode(join(dir, 'LOCK')), 0o400, 'the owner’s own bits are kept');
  assert.equal(narrowDataDir(dir), undefined, 'nothing left to narrow');
});

it('does not follow a symbolic link out of DATA_DIR, and a DATA_DIR that does not exist is nothing to do', () => {
  const dir = join(root, 'linked');
  mkdirSync(dir, { mode: 0o700 });
  const outside = join(root, 'shared.txt');
  writeFileSync(outside, 'not ours to change');
  chmodSync(outside, 0o644);
  symlinkSync(outside, join(dir, 'link'));
  assert.equal(narrowDataDir(dir), undefined);
  assert.equal(mode(outside), 0o644);
  assert.equal(narrowDataDir(join(root, 'absent')), undefined);
});

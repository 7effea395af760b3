import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { backends } from '../harness/backends.js';
import { processDatabase, type ProcessDatabase } from '../harness/process-database.js';
import { entryPoint, runToExit, startServerProcess } from '../harness/process.js';
import { ROOT } from '../harness/root.js';

/**
 * LOG_FORMAT (src/log-format.ts, docs/deployment.md#logs): a pipe gets JSON lines and no `Ready:` line (every line
 * parses), LOG_FORMAT=pretty readable lines ending with a `Ready: <url>` line whose address answers, and a value
 * that is neither stops the start with a configuration error.
 */
for (const backend of backends()) describe(`log format [${backend}, process]`, () => {
  let database: ProcessDatabase;
  before(async () => {
    database = await processDatabase(backend, 'iapi-log-format-');
  });
  after(async () => database.remove());

  it('on a pipe, unset: every line is JSON, the ready entry carries the URL, no Ready: line', { timeout: 90_000 }, async () => {
    const server = await startServerProcess({ ...database.env, LOG_FORMAT: '' });
    try {
      await (await fetch(`${server.url}/livez`)).text();
      await server.stop();
      const lines = server.logs().split('\n').filter((line) => line !== '');
      const entries = lines.map((line) => JSON.parse(line) as { msg?: string; url?: string });
      assert.equal(entries.find((e) => e.msg === 'integrator api ready')?.url, `${server.url}/`);
      assert.ok(entries.some((e) => e.msg === 'applying database migrations'), 'the start says what it is doing');
      assert.ok(!lines.some((line) => line.startsWith('Ready:')));
    } finally {
      await server.stop();
    }
  });

  it('LOG_FORMAT=pretty: readable lines, then Ready: <url> as the start\'s last line, and the URL answers', { timeout: 90_000 }, async () => {
    const child = spawn(process.execPath, entryPoint('src/main.ts'), {
      cwd: ROOT,
      env: { ...process.env, ...database.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const ready = /^Ready: (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out);
          if (ready) resolve(ready[1]!);
        });
        child.on('exit', (code) => reject(new Error(`the server exited (${code}) before its Ready line:\n${out}`)));
      });
      assert.equal((await fetch(url)).status, 200);
      const before = out.slice(0, out.indexOf('Ready: ')).split('\n').filter((line) => line !== '');
      assert.ok(before.length > 3, out);
      for (const line of before) assert.throws(() => JSON.parse(line), `not JSON: ${line}`);
      assert.match(out, /INFO.*: applying database migrations/);
      assert.match(out, /INFO.*: integrator api ready/);
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  });

  it('LOG_FORMAT=yaml: a configuration error, exit 78', { timeout: 60_000 }, async () => {
    const { code, stderr } = await runToExit('src/main.ts', [], { ...database.env, PORT: '0', LOG_FORMAT: 'yaml' });
    assert.equal(code, 78);
    assert.match(stderr, /LOG_FORMAT must be one of auto, json, pretty \(got "yaml"\)/);
  });
});

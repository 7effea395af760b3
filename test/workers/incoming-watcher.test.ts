import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../harness/process.js';
import { startServer, type TestServer } from '../harness/server.js';

// The incoming watcher against a chain whose node does not answer (docs/incoming.md#restarts-outages-and-several-processes):
// every round fails and is tried again at the next poll, but the log says so once (then once a minute), not at every
// poll; the rest of the server is unaffected.

describe('incoming watcher with its node down [pglite]', () => {
  let server: TestServer;
  const lines: string[] = [];

  before(async () => {
    server = await startServer('pglite', { CHAIN_RPC_URLS: `8453=http://127.0.0.1:${await freePort()}`, INCOMING_POLL_MS: '60000' }, { logDestination: { write: (line: string) => void lines.push(line) } });
  });
  after(() => server?.close());

  it('fails each round, warns once for five failed rounds', async () => {
    for (let i = 0; i < 5; i++) assert.deepEqual(await server.incoming!.runOnce(), ['failed']);
    const warnings = lines.filter((l) => l.includes('incoming transfers: the round failed'));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.equal(JSON.parse(warnings[0]!).chainId, 8453);
  });
});

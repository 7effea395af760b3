import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Address, Hex } from 'viem';
import { encodeTransfer } from '../../src/chain/erc20.js';
import { createClient, type Client } from '../harness/client.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends, provisionDatabase } from '../harness/backends.js';
import { eventually } from '../harness/eventually.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { runAdmin, startServerProcess, type ServerProcess } from '../harness/process.js';
import { startRpcProxy, type RpcProxy } from '../harness/rpc-proxy.js';
import { deployTestToken, type TestToken } from '../harness/tokens.js';
import { seededDataDir } from '../harness/pglite-template.js';

// docs/incoming.md#restarts: the incoming watcher records a range and moves its cursor in one transaction, so a
// process killed (kill -9) in the middle of a range records nothing of it, and the next one reads it again: every
// transfer once, none missed. On PostgreSQL, two processes then share the chain: still once each.

const TRANSFERS = 9;

interface Listed {
  kind: string;
  status: string;
  transactionHash: string;
  incoming: { amountRaw: string; symbol: string };
}

for (const backend of backends()) describe(`incoming transfers across kill -9 and restarts [${backend}, process]`, () => {
  let dataDir = '';
  let dropDatabase = async () => {};
  let anvil: Anvil;
  let proxy: RpcProxy;
  let token: TestToken;
  let servers: ServerProcess[] = [];
  let env: Record<string, string>;

  before(async () => {
    anvil = await startAnvil(8453);
    proxy = await startRpcProxy(anvil.url);
    token = await deployTestToken(anvil);
    dataDir = backend === 'pglite' ? await seededDataDir('iapi-incoming-') : mkdtempSync(join(tmpdir(), 'iapi-incoming-'));
    env = {
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: 'cd'.repeat(32),
      CHAIN_RPC_URLS: `8453=${proxy.url}`,
      TOKENS: `8453:USDC:${token.address}`,
      CHAIN_CONFIRMATIONS: '8453=2',
      INCOMING_MAX_BLOCKS: '3',
      INCOMING_POLL_MS: '50',
    };
    if (backend === 'postgres') {
      const { target, drop } = await provisionDatabase('postgres');
      if (target.kind === 'postgres') env.DATABASE_URL = target.url;
      dropDatabase = drop;
    }
  });
  after(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    await proxy?.close();
    await anvil?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase();
  });

  it('kill -9 while a range is being read, restart: every transfer recorded once and completed', async () => {
    const created = await runAdmin(['integrators', 'create', '--name', 'Acme'], env);
    assert.equal(created.code, 0, created.stderr);
    const privateKey = (JSON.parse(created.stdout) as { privateKey: string }).privateKey;
    let server = await startServerProcess(env);
    servers = [server];
    let client: Client = createClient({ baseUrl: server.url, privateKey });
    const account = await client.post('/v1/submit/create-individual-account', { userInfo: californian(), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs(), authenticators: [new SoftwareAuthenticator().authenticator()] });
    assert.equal(account.status, 201, account.text);
    const { accountId, walletAddress } = account.body as { accountId: string; walletAddress: Address };
    const [from] = await anvil.rpc<string[]>('eth_accounts');
    await token.mint(from!, 1_000_000n);

    // The watcher has its cursor once it reads a range by number (its first round only notes the head).
    // A block a second until it does: on a loaded machine its first round may come after a single block was mined, note
    // that block as the head, and wait for the next.
    const rangeRead = () => proxy.calls.some((c) => c.method === 'eth_getLogs');
    let minedAt = 0;
    await eventually(
      async () => {
        if (!rangeRead() && Date.now() - minedAt >= 1000) {
          minedAt = Date.now();
          await anvil.rpc('anvil_mine', ['0x1']);
        }
        return rangeRead();
      },
      Boolean,
      'the watcher reading ranges',
      60_000,
    );

    // Hold the next range's read, make the transfers (one block each), and kill the process while it waits.
    proxy.holdCalls = 'eth_getLogs';
    const hashes: Hex[] = [];
    for (let i = 1; i <= TRANSFERS; i++) {
      const call = i % 2 === 0 ? { to: token.address, data: encodeTransfer(walletAddress, BigInt(i)) } : { to: walletAddress, value: `0x${i.toString(16)}` };
      const hash = await anvil.rpc<Hex>('eth_sendTransaction', [{ from, ...call }]);
      await anvil.mined(hash);
      hashes.push(hash);
    }
    await proxy.callsHeld(1);
    assert.equal(await server.stop('SIGKILL'), null);
    proxy.holdCalls = undefined;
    proxy.releaseCall();

    server = await startServerProcess(env);
    servers = [server];
    // PostgreSQL: a second process on the same database races the first for every range.
    if (backend === 'postgres') servers.push(await startServerProcess(env));
    client = createClient({ baseUrl: server.url, privateKey });
    const incoming = async () => ((await client.get(`/v1/query/list-transactions?accountId=${accountId}&limit=100`)).body.data as Listed[]).filter((t) => t.kind === 'incoming');
    await anvil.rpc('anvil_mine', ['0x2']);
    const done = await eventually(incoming, (list) => list.length >= TRANSFERS && list.every((t) => t.status === 'completed'), 'every transfer recorded and completed', 30_000);
    assert.equal(done.length, TRANSFERS, 'none twice');
    assert.deepEqual(done.map((t) => t.transactionHash).sort(), [...hashes].sort(), 'none missed');
    assert.deepEqual(
      done.map((t) => t.incoming.amountRaw).sort((a, b) => Number(a) - Number(b)),
      Array.from({ length: TRANSFERS }, (_, i) => String(i + 1)),
    );
    const events = await client.get('/v1/events?type=transaction.created&limit=100');
    assert.equal(events.status, 200, events.text);
    assert.equal((events.body.data as unknown[]).length, TRANSFERS, 'one transaction.created each');
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { keccak256, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createClient } from '../../src/client/index.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends, provisionDatabase } from '../harness/backends.js';
import { eventually } from '../harness/eventually.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { runAdmin, startServerProcess, type ServerProcess } from '../harness/process.js';

/**
 * A JSON-RPC proxy in front of anvil that can hold eth_sendRawTransaction: the server has signed and stored the
 * transaction and is sending it, but the node never gets it. That is the moment a crash must not cost a second
 * payment.
 */
async function startRpcProxy(target: string) {
  const held: string[] = [];
  const sockets = new Set<Socket>();
  let holding = false;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const call = JSON.parse(body) as { method?: string; params?: unknown[] };
    if (holding && call.method === 'eth_sendRawTransaction') {
      held.push(String(call.params?.[0]));
      return; // never answered: the sender waits until it gives up, or dies
    }
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    hold(on: boolean) {
      holding = on;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

for (const backend of backends()) describe(`withdrawal refunds survive a crash between signing and sending [${backend}, process]`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'iapi-refund-'));
  let dropDatabase = async () => {};
  const treasuryKey = generatePrivateKey();
  const treasury = privateKeyToAccount(treasuryKey).address;
  let anvil: Anvil;
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  let server: ServerProcess | undefined;
  let env: Record<string, string>;

  before(async () => {
    anvil = await startAnvil(8453);
    proxy = await startRpcProxy(anvil.url);
    env = { DATA_DIR: dataDir, ENCRYPTION_KEY: 'ab'.repeat(32), CHAIN_RPC_URLS: `8453=${proxy.url}`, TREASURY_PRIVATE_KEY: treasuryKey };
    if (backend === 'postgres') {
      const { target, drop } = await provisionDatabase('postgres');
      if (target.kind === 'postgres') env.DATABASE_URL = target.url;
      dropDatabase = drop;
    }
    await anvil.setBalance(treasury, 10n ** 18n);
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await proxy?.close();
    await anvil?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase();
  });

  it('kill -9 after the refund is signed, restart: the same signed refund is sent and the wallet is paid exactly once', async () => {
    const created = await runAdmin(['integrators', 'create', '--name', 'Acme'], env);
    assert.equal(created.code, 0, created.stderr);
    const { privateKey } = JSON.parse(created.stdout) as { privateKey: string };
    server = await startServerProcess(env);
    let client = createClient({ baseUrl: server.url, privateKey });
    const passkey = new SoftwareAuthenticator();

    const account = await client.post('/v1/submit/create-individual-account', { userInfo: californian(), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs(), authenticators: [passkey.authenticator()] });
    assert.equal(account.status, 201, account.text);
    const { accountId, organizationId, walletAddress } = account.body;
    assert.equal((await client.post('/v1/sandbox/simulate-verification', { accountId, outcome: 'approve' })).status, 200);
    await anvil.setBalance(walletAddress, 10n ** 18n);
    const bank = await client.post('/v1/submit/create-bank-account', { accountId, currency: 'USD', accountHolderName: 'Maria Garcia', us: { accountNumber: '000123456789', routingNumber: '021000021', accountType: 'checking' } });
    assert.equal(bank.body.status, 'verified', bank.text);

    const withdrawal = await client.post('/v1/submit/create-withdrawal', { accountId, bankAccountId: bank.body.bankAccountId, chainId: 8453, amount: '10.00', currency: 'USD' });
    assert.equal(withdrawal.status, 201, withdrawal.text);
    const { transactionId, unsignedTransaction } = withdrawal.body;
    const signedBody = { type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', timestampMs: String(Date.now()), organizationId, parameters: { signWith: walletAddress, unsignedTransaction, type: 'TRANSACTION_TYPE_ETHEREUM' } };
    const approved = await client.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId, signedBody, webAuthnStamp: passkey.stamp(JSON.stringify(signedBody)) });
    assert.equal(approved.status, 201, approved.text);
    const read = () => client.get(`/v1/query/get-transaction?transactionId=${transactionId}`);
    await eventually(read, (r) => r.body.status === 'funds_in_transfer', 'the withdrawal in the treasury', 15_000);

    const walletBefore = BigInt(await anvil.rpc<string>('eth_getBalance', [walletAddress, 'latest']));
    const treasuryNonce = Number(BigInt(await anvil.rpc<string>('eth_getTransactionCount', [treasury, 'latest'])));
    proxy.hold(true);
    const returned = await client.post('/v1/sandbox/simulate-withdrawal', { transactionId, outcome: 'returned' });
    assert.deepEqual([returned.body.status, returned.body.failureReason], ['failed', 'payout_returned'], returned.text);
    // The watcher signed and stored the refund, and is sending it: now the process dies.
    await eventually(async () => proxy.held.length, (n) => n > 0, 'the refund on its way to the node', 15_000);
    assert.equal(await server.stop('SIGKILL'), null);
    server = undefined;
    const signedRefund = proxy.held[0] as Hex;
    proxy.hold(false);

    server = await startServerProcess(env);
    client = createClient({ baseUrl: server.url, privateKey });
    const list = await client.get(`/v1/query/list-transactions?accountId=${accountId}&limit=100`);
    const refunds = list.body.data.filter((t: { kind: string }) => t.kind === 'refund');
    assert.equal(refunds.length, 1, 'one refund');
    const refund = await eventually(
      () => client.get(`/v1/query/get-transaction?transactionId=${refunds[0].transactionId}`),
      (r) => r.body.status === 'completed',
      'the refund completed after the restart',
      20_000,
    );
    assert.equal(refund.body.transactionHash, keccak256(signedRefund), 'the same signed transaction, not a new one');
    assert.equal(refund.body.refund.withdrawalTransactionId, transactionId);
    const walletAfter = BigInt(await anvil.rpc<string>('eth_getBalance', [walletAddress, 'latest']));
    assert.equal(walletAfter - walletBefore, BigInt(withdrawal.body.withdrawal.cryptoAmountWei), 'refunded exactly once');
    assert.equal(Number(BigInt(await anvil.rpc<string>('eth_getTransactionCount', [treasury, 'latest']))), treasuryNonce + 1, 'one transaction from the treasury');
  });
});

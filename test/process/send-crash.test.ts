import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { keccak256, serializeTransaction, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createClient, type Client } from '../harness/client.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends, provisionDatabase } from '../harness/backends.js';
import { eventually } from '../harness/eventually.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { runAdmin, startServerProcess, type ServerProcess } from '../harness/process.js';
import { startRpcProxy, type RpcProxy } from '../harness/rpc-proxy.js';
import { seededDataDir } from '../harness/pglite-template.js';

for (const backend of backends()) describe(`signed transactions survive a crash between their commit and their send [${backend}, process]`, () => {
  let dataDir = '';
  let dropDatabase = async () => {};
  const treasuryKey = generatePrivateKey();
  const treasury = privateKeyToAccount(treasuryKey).address;
  let anvil: Anvil;
  let proxy: RpcProxy;
  let server: ServerProcess | undefined;
  let env: Record<string, string>;
  let privateKey: string;

  before(async () => {
    anvil = await startAnvil(8453);
    proxy = await startRpcProxy(anvil.url);
    dataDir = backend === 'pglite' ? await seededDataDir('iapi-refund-') : mkdtempSync(join(tmpdir(), 'iapi-refund-'));
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
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase();
  });

  /** An approved individual account with a passkey and 1 ETH on chain 8453. */
  async function openAccount(client: Client) {
    const passkey = new SoftwareAuthenticator();
    const account = await client.post('/v1/submit/create-individual-account', { userInfo: californian(), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs(), authenticators: [passkey.authenticator()] });
    assert.equal(account.status, 201, account.text);
    const { accountId, organizationId, walletAddress } = account.body as { accountId: string; organizationId: string; walletAddress: string };
    assert.equal((await client.post('/v1/sandbox/simulate-verification', { accountId, outcome: 'approve' })).status, 200);
    await anvil.setBalance(walletAddress, 10n ** 18n);
    return { passkey, accountId, organizationId, walletAddress };
  }

  it('kill -9 after the refund is signed, restart: the same signed refund is sent and the wallet is paid exactly once', async () => {
    const created = await runAdmin(['integrators', 'create', '--name', 'Acme'], env);
    assert.equal(created.code, 0, created.stderr);
    privateKey = (JSON.parse(created.stdout) as { privateKey: string }).privateKey;
    server = await startServerProcess(env);
    let client = createClient({ baseUrl: server.url, privateKey });
    const { passkey, accountId, organizationId, walletAddress } = await openAccount(client);
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
    proxy.mode = 'hold';
    const returned = await client.post('/v1/sandbox/simulate-withdrawal', { transactionId, outcome: 'returned' });
    assert.deepEqual([returned.body.status, returned.body.failureReason], ['failed', 'payout_returned'], returned.text);
    // The watcher signed and stored the refund, and is sending it: now the process dies.
    await proxy.held();
    assert.equal(await server.stop('SIGKILL'), null);
    server = undefined;
    const signedRefund = proxy.heldRaw[0] as Hex;
    proxy.abortHeld();
    proxy.mode = 'pass';

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
  it('kill -9 between a transfer’s commit and its send, restart: the watcher sends the same signed transfer, once', async () => {
    assert.ok(server, 'the server of the previous test');
    let client = createClient({ baseUrl: server.url, privateKey });
    const { passkey, organizationId, walletAddress } = await openAccount(client);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const unsignedTransaction = serializeTransaction({ chainId: 8453, type: 'eip1559', nonce: 0, to, value: 12_345n, gas: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });
    const signedBody = { type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', timestampMs: String(Date.now()), organizationId, parameters: { signWith: walletAddress, unsignedTransaction, type: 'TRANSACTION_TYPE_ETHEREUM' } };
    const transactionId = randomUUID();

    proxy.mode = 'hold';
    const sending = client.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId, signedBody, webAuthnStamp: passkey.stamp(JSON.stringify(signedBody)) }).catch((err: unknown) => err);
    // Committed and on its way to the node: now the process dies, before the node has it.
    await proxy.held();
    assert.equal(await server.stop('SIGKILL'), null);
    server = undefined;
    assert.ok((await sending) instanceof Error, 'the request never got its answer');
    const signedTransfer = proxy.heldRaw.at(-1) as Hex;
    proxy.abortHeld();
    proxy.mode = 'pass';

    server = await startServerProcess(env);
    client = createClient({ baseUrl: server.url, privateKey });
    const done = await eventually(
      () => client.get(`/v1/query/get-transaction?transactionId=${transactionId}`),
      (r) => r.body.status === 'completed',
      'the transfer completed after the restart',
      20_000,
    );
    assert.equal(done.body.transactionHash, keccak256(signedTransfer), 'the transaction signed before the crash');
    assert.equal(BigInt(await anvil.rpc<string>('eth_getBalance', [to, 'latest'])), 12_345n, 'paid once');
    assert.equal(Number(BigInt(await anvil.rpc<string>('eth_getTransactionCount', [walletAddress, 'latest']))), 1);
  });
});

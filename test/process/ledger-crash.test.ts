import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { serializeTransaction, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ANVIL_DEV_KEY } from '../../src/chain/demo-vault.js';
import { openDatabase, selectRows, type DatabaseTarget } from '../../src/db/database.js';
import { createClient, type Client } from '../harness/client.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends, provisionDatabase } from '../harness/backends.js';
import { eventually } from '../harness/eventually.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { runAdmin, startServerProcess, type ServerProcess } from '../harness/process.js';
import { seededDataDir } from '../harness/pglite-template.js';

/*
 * kill -9 during postings (docs/ledger.md): a server process moves money (transfers from a custodial wallet, fiat
 * deposits paid out from the treasury) and is killed at a random moment, LEDGER_CRASH_ROUNDS times (2 by default).
 * Afterwards a last server settles everything, stops, and the books are read directly and against the chain:
 *   - every ledger transaction sums to zero per asset, and each cause posted once (its key is unique);
 *   - every account's maintained balances are the sums of its entries (nothing doubled, nothing lost);
 *   - every transaction that reached the chain has its movement posted (completed) or archived (failed);
 *   - the chain reconciliation (the admin CLI) reports no break.
 */

const ROUNDS = Number(process.env.LEDGER_CRASH_ROUNDS || 2);
const DEV = privateKeyToAccount(ANVIL_DEV_KEY);

for (const backend of backends()) {
  describe(`the ledger survives kill -9 during postings [${backend}, process]`, () => {
    let dataDir = '';
    let target: DatabaseTarget | undefined;
    let dropDatabase = async () => {};
    let anvil: Anvil;
    let server: ServerProcess | undefined;
    let env: Record<string, string>;
    const treasuryKey = generatePrivateKey();

    before(async () => {
      anvil = await startAnvil(8453);
      dataDir = backend === 'pglite' ? await seededDataDir('iapi-ledger-') : mkdtempSync(join(tmpdir(), 'iapi-ledger-'));
      // Funded before the first start: the ledger opens with it.
      await anvil.setBalance(privateKeyToAccount(treasuryKey).address, 10n ** 19n);
      env = { DATA_DIR: dataDir, ENCRYPTION_KEY: 'cd'.repeat(32), CHAIN_RPC_URLS: `8453=${anvil.url}`, TREASURY_PRIVATE_KEY: treasuryKey, CHAIN_CONFIRMATIONS: '8453=1', INCOMING_POLL_MS: '200' };
      if (backend === 'postgres') {
        const provisioned = await provisionDatabase('postgres');
        target = provisioned.target;
        if (target.kind === 'postgres') env.DATABASE_URL = target.url;
        dropDatabase = provisioned.drop;
      } else target = { kind: 'pglite', dataDir };
    });
    after(async () => {
      await server?.stop('SIGKILL');
      await anvil?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase();
    });

    /** An approved individual account with a passkey, its wallet funded by a real transfer (an incoming transfer). */
    async function openAccount(client: Client) {
      const passkey = new SoftwareAuthenticator();
      const account = await client.post('/v1/submit/create-individual-account', { userInfo: californian(), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs(), authenticators: [passkey.authenticator()] });
      assert.equal(account.status, 201, account.text);
      const { accountId, organizationId, walletAddress } = account.body as { accountId: string; organizationId: string; walletAddress: string };
      assert.equal((await client.post('/v1/sandbox/simulate-verification', { accountId, outcome: 'approve' })).status, 200);
      const hash = await anvil.rpc<Hex>('eth_sendTransaction', [{ from: DEV.address, to: walletAddress, value: `0x${(10n ** 18n).toString(16)}` }]);
      await anvil.mined(hash);
      return { passkey, accountId, organizationId, walletAddress };
    }

    it(`${ROUNDS} rounds of kill -9 under transfers and deposits: balanced, nothing doubled or lost, equal to the chain`, async () => {
      const created = await runAdmin(['integrators', 'create', '--name', 'Acme'], env);
      assert.equal(created.code, 0, created.stderr);
      const { privateKey } = JSON.parse(created.stdout) as { privateKey: string };
      server = await startServerProcess(env);
      let client = createClient({ baseUrl: server.url, privateKey });
      // The incoming watcher's first round opened the ledger and started reading the chain (its cursor's age is a
      // metric once it exists): the funding below comes after, as an incoming transfer.
      const started = server;
      await eventually(() => fetch(`${started.url}/metrics`).then((r) => r.text()), (text) => /incoming_scan_age_seconds\{chain_id="8453"\}/.test(text), 'the incoming watcher started', 15_000);
      const alice = await openAccount(client);
      let nonce = 0;
      const transfer = (c: Client) => {
        const unsignedTransaction = serializeTransaction({ chainId: 8453, type: 'eip1559', nonce: nonce++, to: DEV.address, value: 10n ** 15n, gas: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n });
        const signedBody = { type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', timestampMs: String(Date.now()), organizationId: alice.organizationId, parameters: { signWith: alice.walletAddress, unsignedTransaction, type: 'TRANSACTION_TYPE_ETHEREUM' } };
        return c.post('/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: crypto.randomUUID(), signedBody, webAuthnStamp: alice.passkey.stamp(JSON.stringify(signedBody)) });
      };
      const deposit = async (c: Client) => {
        const made = await c.post('/v1/submit/create-deposit', { accountId: alice.accountId, amount: '3.00', currency: 'USD', chainId: 8453 });
        if (made.status === 201) await c.post('/v1/sandbox/simulate-deposit', { transactionId: made.body.transactionId, amount: '3.00' });
      };
      await eventually(() => client.get(`/v1/accounts/${alice.accountId}/ledger-entries?status=posted`), (r) => r.body.data?.length === 1, 'the funding posted', 15_000);

      for (let round = 0; round < ROUNDS; round++) {
        // The load, sequential per wallet (each transfer its own nonce); killed somewhere in its middle.
        const load = (async () => {
          for (let i = 0; i < 6; i++) await Promise.allSettled([transfer(client), deposit(client)]);
        })();
        await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(Math.random() * 600)));
        assert.equal(await server.stop('SIGKILL'), null);
        await load.catch(() => {});
        server = await startServerProcess(env);
        client = createClient({ baseUrl: server.url, privateKey });
        // A transfer whose request died with the process may have been recorded or not: the nonce is the chain's.
        nonce = Number(BigInt(await anvil.rpc<string>('eth_getTransactionCount', [alice.walletAddress, 'pending'])));
      }

      // Everything settles, and is final on chain (one confirmation; the incoming watcher posts it).
      const list = () => client.get(`/v1/query/list-transactions?accountId=${alice.accountId}&limit=100`);
      await eventually(list, (r) => (r.body.data as { status: string; kind: string }[]).every((t) => t.status === 'completed' || t.status === 'failed' || (t.kind === 'deposit' && t.status === 'waiting_for_funds')), 'every transaction settled', 60_000);
      await anvil.rpc('anvil_mine', ['0x2']);
      await eventually(() => client.get(`/v1/accounts/${alice.accountId}/ledger-entries?status=pending`), (r) => r.body.data?.length === 0, 'nothing pending in the ledger', 30_000);
      assert.equal(await server.stop('SIGTERM'), 0);
      server = undefined;

      const database = await openDatabase(target!);
      try {
        const unbalanced = await selectRows(database.db, sql`select ledger_transaction_id, asset, sum(amount)::text from ledger_entries group by 1, 2 having sum(amount) <> 0`);
        assert.deepEqual(unbalanced, [], 'every ledger transaction sums to zero per asset');
        const drift = await selectRows(
          database.db,
          // An account's balances are its row's and its balance slots' (docs/ledger.md#locking); its entries name it.
          sql`select la.code from ledger_accounts la left join (
                select ledger_account_id, sum(amount) filter (where status = 'posted') as posted, sum(amount) filter (where status <> 'archived') as pending
                from ledger_entries group by 1) e on e.ledger_account_id = la.id
              left join (select slot_of, sum(posted_balance) as posted, sum(pending_balance) as pending from ledger_accounts where slot_of is not null group by 1) s on s.slot_of = la.id
              where la.slot_of is null and (la.posted_balance + coalesce(s.posted, 0) <> coalesce(e.posted, 0) or la.pending_balance + coalesce(s.pending, 0) <> coalesce(e.pending, 0))`,
        );
        assert.deepEqual(drift, [], 'every account’s balances are the sums of its entries');
        const unposted = await selectRows(
          database.db,
          sql`select t.id, t.kind, t.status from transactions t
              where t.transaction_hash is not null and t.kind in ('transfer', 'deposit')
                and not exists (select 1 from ledger_transactions l where l.cause_key = 'transaction:' || t.id || ':chain'
                                and l.status = case when t.status = 'completed' then 'posted' else 'archived' end)
                and not (t.status = 'failed' and not exists (select 1 from ledger_transactions l where l.cause_key = 'transaction:' || t.id || ':chain'))`,
        );
        assert.deepEqual(unposted, [], 'every movement that reached the chain is posted (completed) or archived (failed)');
      } finally {
        await database.close();
      }
      const reconciled = await runAdmin(['reconcile', 'chain'], env);
      assert.equal(reconciled.code, 0, reconciled.stderr);
      assert.deepEqual((JSON.parse(reconciled.stdout) as { breaks: unknown[] }).breaks, [], 'the chain agrees with the books');
    });
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { privateKeyToAccount, publicKeyToAddress } from 'viem/accounts';
import { parseUnsignedTransaction } from '../../src/chain/custody-signer.js';
import { TREASURY_KEY_LABEL, tokenCustodyKeys, walletKeyLabel, type CustodyKeys } from '../../src/chain/custody-keys.js';
import { treasuryKeyFor } from '../../src/chain/treasury.js';
import { importKeysToToken, KeyImportError } from '../../src/cli/custody-key-import.js';
import { sealContexts } from '../../src/crypto/seal-contexts.js';
import { CustodyToken } from '../../src/crypto/pkcs11/token.js';
import { wallets } from '../../src/db/schema/index.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { createCustomer, ETH, unsignedTransfer } from '../harness/customers.js';
import { eventually } from '../harness/eventually.js';
import { dumpDatabase, findKnownKeys, findWalletKeys } from '../harness/key-search.js';
import { startServer, type TestServer } from '../harness/server.js';
import { createTestToken, SOFTHSM_MODULE, softHsmMissing } from '../harness/softhsm.js';

/*
 * `keys import-to-token` (docs/key-management.md#moving-keys-into-the-token): a deployment whose wallets were sealed
 * moves them into the token in bounded, resumable batches, each object proven before its sealed copy is erased.
 */
const skip = softHsmMissing('the key import tests');

for (const backend of backends()) {
  describe(`keys import-to-token [${backend}]`, { skip: skip ? `${SOFTHSM_MODULE} is missing` : false }, () => {
    let node: Anvil;
    let server: TestServer;
    let token: CustodyToken;
    let custody: CustodyKeys | undefined;
    const keys: Hex[] = [];

    before(async () => {
      const testToken = await createTestToken();
      node = await startAnvil(8453);
      // A deployment as it was: CUSTODY_KEYS=sealed (the default).
      server = await startServer(backend, { CHAIN_RPC_URLS: `8453=${node.url}` });
      const acme = await server.seedIntegrator('Acme');
      for (let i = 0; i < 6; i++) await createCustomer(server, acme, { approve: false });
      for (const row of await rows()) keys.push(server.secrets.open(row.privateKeySealed!, sealContexts.walletKey(row.id)).toString('utf8') as Hex);
      token = await CustodyToken.open({ module: SOFTHSM_MODULE, tokenLabel: testToken.label, pin: () => testToken.pin });
    });
    after(async () => {
      if (custody) custody.close();
      else token?.close();
      await server?.close();
      await node?.stop();
    });

    const rows = () => server.database.db.select().from(wallets).orderBy(wallets.id);
    const treasuryKey = () => treasuryKeyFor({ key: undefined, sandbox: true, secrets: server.secrets });

    it('before: the dump holds every wallet key sealed (the search finds them), none in clear', async () => {
      const dump = await dumpDatabase(server.database);
      assert.equal(findWalletKeys(dump, await rows(), server.secrets).length, 6);
      assert.deepEqual(findKnownKeys(dump, keys), []);
    });

    it('a label on the token holding another key stops the import, and that wallet stays sealed', async () => {
      const [first] = await rows();
      await token.generateKey(walletKeyLabel(first!.id));
      await assert.rejects(importKeysToToken({ db: server.database.db, secrets: server.secrets, token, batchSize: 2 }), KeyImportError);
      const [still] = await server.database.db.select().from(wallets).where(eq(wallets.id, first!.id));
      assert.ok(still!.privateKeySealed);
      assert.equal(still!.keyLabel, null);
      // The operator's fix: delete the stray object on the token (here, drop that wallet from the run).
      await server.database.db.delete(wallets).where(eq(wallets.id, first!.id));
      keys.shift();
    });

    it('imports in bounded batches, resumes after a stop, reuses a key an interrupted run left on the token', async () => {
      // An earlier run died between putting this key on the token and writing its row.
      const [leftOver] = await rows();
      const secret = Buffer.from(keys[0]!.slice(2), 'hex');
      const account = privateKeyToAccount(keys[0]!);
      await token.importKey(walletKeyLabel(leftOver!.id), secret, Buffer.from(account.publicKey.slice(2), 'hex'));

      const stop = new Error('stopped after one batch');
      await assert.rejects(
        importKeysToToken({ db: server.database.db, secrets: server.secrets, token, batchSize: 2, onBatch: () => { throw stop; } }),
        (err) => err === stop,
      );
      assert.equal((await rows()).filter((r) => r.privateKeySealed).length, 3, 'one batch of two moved');

      const progress: Array<{ imported: number; remaining: number }> = [];
      const report = await importKeysToToken({ db: server.database.db, secrets: server.secrets, token, batchSize: 2, treasuryKey: treasuryKey(), onBatch: (p) => progress.push(p) });
      assert.deepEqual(report, { imported: 3, remaining: 0, treasury: 'imported' });
      assert.deepEqual(progress, [{ imported: 2, remaining: 1 }, { imported: 3, remaining: 0 }]);
      for (const row of await rows()) {
        assert.equal(row.privateKeySealed, null, 'the sealed copy is erased');
        assert.equal(row.keyLabel, walletKeyLabel(row.id));
        assert.equal(publicKeyToAddress(row.publicKey as Hex), row.address);
      }
      assert.equal(publicKeyToAddress(`0x${(await token.publicKey(TREASURY_KEY_LABEL))!.toString('hex')}`), server.treasury!.address);
      // Run again: nothing left, nothing changed.
      assert.deepEqual(await importKeysToToken({ db: server.database.db, secrets: server.secrets, token, treasuryKey: treasuryKey() }), { imported: 0, remaining: 0, treasury: 'on_token' });
    });

    it('after: the dump holds no wallet key, known or found, in clear or sealed', async () => {
      const dump = await dumpDatabase(server.database);
      assert.deepEqual(findKnownKeys(dump, keys), []);
      assert.deepEqual(findWalletKeys(dump, await rows(), server.secrets), []);
    });

    it('the moved wallets and the treasury sign on the token; a transfer is mined from the wallet’s address', async () => {
      custody = await tokenCustodyKeys(server.secrets, token);
      assert.equal(custody.tokenTreasury?.address, server.treasury!.address, 'the treasury keeps its address');
      const [row] = await rows();
      await node.setBalance(row!.address, ETH);
      const signed = await custody.signForWallet(row!, parseUnsignedTransaction(unsignedTransfer(8453, 0)));
      const chain = server.chains.get(8453)!;
      const hash = await chain.broadcast(signed);
      const receipt = await eventually(() => chain.receipt(hash), (r) => r !== null, 'the transfer mined');
      assert.equal(receipt!.from.toLowerCase(), row!.address.toLowerCase());
      assert.equal(receipt!.status, 'success');
    });
  });
}

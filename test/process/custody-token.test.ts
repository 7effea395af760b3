import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClient } from '../harness/client.js';
import { wallets } from '../../src/db/schema/index.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { processDatabase, type ProcessDatabase } from '../harness/process-database.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { freePort, runAdmin, runToExit, startServerProcess, type ServerProcess } from '../harness/process.js';
import { createTestToken, SOFTHSM_MODULE, softHsmMissing, type TestToken } from '../harness/softhsm.js';

// The operator's path of docs/key-management.md, through the real processes: a deployment on sealed keys, a token
// that refuses the PIN from PKCS11_PIN or PKCS11_PIN_FILE (exit 78, one line naming that variable, no PIN), `keys import-to-token`, and the server back on the token.
const skip = softHsmMissing('the custody token process test');

for (const backend of backends()) {
  describe(`moving custody keys into a token [${backend}, process]`, { skip: skip ? `${SOFTHSM_MODULE} is missing` : false }, () => {
    const base: Record<string, string> = { ENCRYPTION_KEY: randomBytes(32).toString('hex') };
    let token: TestToken;
    let database: ProcessDatabase;
    let server: ServerProcess | undefined;

    before(async () => {
      token = await createTestToken();
      database = await processDatabase(backend, 'iapi-custody-');
      Object.assign(base, database.env);
    });
    after(async () => {
      await server?.stop('SIGKILL');
      await database?.remove();
    });

    const walletRows = () => database.read((opened) => opened.db.select().from(wallets));

    const createAccount = async (url: string, privateKey: string) => {
      const res = await createClient({ baseUrl: url, privateKey }).post('/v1/submit/create-individual-account', {
        userInfo: californian(),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: personDocs(),
        authenticators: [new SoftwareAuthenticator().authenticator()],
      });
      assert.equal(res.status, 201, res.text);
    };

    it('sealed wallets move into the token with the CLI, and the server then makes new ones there', async () => {
      const created = await runAdmin(['integrators', 'create', '--name', 'Acme'], base);
      assert.equal(created.code, 0, created.stderr);
      const { privateKey } = JSON.parse(created.stdout) as { privateKey: string };
      server = await startServerProcess(base);
      await createAccount(server.url, privateKey);
      await createAccount(server.url, privateKey);
      assert.equal(await server.stop(), 0);
      server = undefined;

      const wrongPin = 'wrong-pin-24680';
      const refused = await runToExit('src/main.ts', [], { ...base, ...token.env, PKCS11_PIN: wrongPin, PORT: String(await freePort()) });
      assert.equal(refused.code, 78, refused.stderr);
      assert.equal(refused.stderr.trim(), `configuration error: PKCS11_PIN: the token "${token.label}" refused the PIN (CKR_PIN_INCORRECT)`);
      assert.ok(!`${refused.stdout}${refused.stderr}`.includes(wrongPin));
      // The same PIN from PKCS11_PIN_FILE: the line names the variable the operator set, and the file.
      const pinFile = join(database.env.DATA_DIR!, 'wrong-pin');
      writeFileSync(pinFile, `${wrongPin}\n`, { mode: 0o600 });
      const { PKCS11_PIN: _pin, ...fromFile } = token.env;
      const refusedFile = await runToExit('src/main.ts', [], { ...base, ...fromFile, PKCS11_PIN_FILE: pinFile, PORT: String(await freePort()) });
      assert.equal(refusedFile.code, 78, refusedFile.stderr);
      assert.equal(refusedFile.stderr.trim(), `configuration error: PKCS11_PIN_FILE: the token "${token.label}" refused the PIN in ${pinFile} (CKR_PIN_INCORRECT)`);
      assert.ok(!`${refusedFile.stdout}${refusedFile.stderr}`.includes(wrongPin));

      const moved = await runAdmin(['keys', 'import-to-token'], { ...base, ...token.env });
      assert.equal(moved.code, 0, moved.stderr);
      assert.deepEqual({ ...JSON.parse(moved.stdout), seconds: 0 }, { imported: 2, remaining: 0, treasury: 'imported', seconds: 0 });
      assert.match(moved.stderr, /\{"imported":2,"remaining":0\}/);
      assert.ok(!moved.stderr.includes(token.pin) && !moved.stdout.includes(token.pin));

      server = await startServerProcess({ ...base, ...token.env });
      await createAccount(server.url, privateKey);
      assert.equal(await server.stop(), 0);
      server = undefined;
      const rows = await walletRows();
      assert.equal(rows.length, 3);
      for (const row of rows) assert.deepEqual([row.privateKeySealed, row.keyLabel], [null, `wallet:${row.id}`]);
    });
  });
}

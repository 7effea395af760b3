import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createClient, type Client } from '../harness/client.js';
import { keyFingerprint, SecretBox } from '../../src/crypto/secret-box.js';
import { selectRows } from '../../src/db/database.js';
import { SEALED_COLUMNS } from '../../src/db/repositories/sealed-values.js';
import { SoftwareAuthenticator } from '../harness/authenticator.js';
import { backends } from '../harness/backends.js';
import { processDatabase, type ProcessDatabase } from '../harness/process-database.js';
import { eventually } from '../harness/eventually.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { runAdmin, startServerProcess, type ServerProcess } from '../harness/process.js';

// docs/key-management.md#rotating-the-sealing-key: the sealing key rotates while the service takes signed writes (no
// request fails, nothing becomes unreadable), then the old key is dropped and everything still reads.

const BEFORE = 24;
const DURING = 24;
const CONCURRENCY = 4;
const id = (key: Buffer) => keyFingerprint(key).slice(0, 16);

interface Sent {
  key: string;
  body: unknown;
  status: number;
  text: string;
}

for (const backend of backends()) describe(`rotating the sealing key under load [${backend}, process]`, () => {
  const [k0, k1] = [randomBytes(32), randomBytes(32)];
  let database: ProcessDatabase;
  let server: ServerProcess | undefined;
  let base: Record<string, string> = {};

  before(async () => {
    database = await processDatabase(backend, 'iapi-rotation-');
    base = { ...database.env, WEBHOOK_ALLOW_PRIVATE: '1' };
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await database?.remove();
  });

  /** Signed account creations (each sealing an SSN, documents, a wallet key and its stored answer), a few at a time. */
  async function createAccounts(client: Client, n: number, ssnOf: (i: number) => string): Promise<Sent[]> {
    const sent: Sent[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < n; i = next++) {
          const body = { userInfo: californian({ socialSecurityNumber: ssnOf(i) }), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs(), authenticators: [new SoftwareAuthenticator().authenticator()] };
          const key = `rotation-${randomUUID()}`;
          const res = await client.post('/v1/submit/create-individual-account', body, { headers: { 'Idempotency-Key': key } });
          sent.push({ key, body, status: res.status, text: res.text });
        }
      }),
    );
    return sent;
  }

  /** The same requests again: their stored (sealed) answers come back byte for byte. */
  async function replay(client: Client, sent: Sent[]): Promise<void> {
    for (const s of sent) {
      const res = await client.post('/v1/submit/create-individual-account', s.body, { headers: { 'Idempotency-Key': s.key } });
      assert.equal(res.status, s.status, res.text);
      assert.equal(res.text, s.text, 'the stored answer, opened');
    }
  }

  it('rotates with no failed request, then runs on the new key alone with every value readable and every keyed hash unchanged', async () => {
    const created = await runAdmin(['integrators', 'create', '--name', 'Acme'], { ...base, ENCRYPTION_KEY: k0.toString('hex') });
    assert.equal(created.code, 0, created.stderr);
    const privateKey = (JSON.parse(created.stdout) as { privateKey: string }).privateKey;

    // Before: data sealed under the first key.
    server = await startServerProcess({ ...base, ENCRYPTION_KEY: k0.toString('hex') });
    let client = createClient({ baseUrl: server.url, privateKey });
    const hook = await client.post('/v1/webhooks/subscriptions', { name: 'rotation', url: 'http://127.0.0.1:9/in', eventTypes: ['credential.*'], httpHeaders: { 'X-Receiver-Token': 'tok-rotation' } });
    assert.equal(hook.status, 201, hook.text);
    const before = await createAccounts(client, BEFORE, (i) => `52145${1000 + i}`);
    assert.deepEqual(before.filter((s) => s.status !== 201).map((s) => s.text), []);
    assert.equal(await server.stop(), 0);

    // The rotation: the new key first; the server re-seals in the background, a value per transaction, while requests go on.
    const ring = `${k1.toString('hex')},${k0.toString('hex')}`;
    server = await startServerProcess({ ...base, ENCRYPTION_KEYS: ring, RESEAL_BATCH: '1' });
    client = createClient({ baseUrl: server.url, privateKey });
    const loadStarted = Date.now();
    // On PostgreSQL an operator's `keys reseal` runs beside the server too: the two share the work, row by row.
    const cli = backend === 'postgres' ? runAdmin(['keys', 'reseal'], { ...base, ENCRYPTION_KEYS: ring, RESEAL_BATCH: '1' }) : undefined;
    const [during] = await Promise.all([createAccounts(client, DURING, (i) => `52245${1000 + i}`), replay(client, before)]);
    if (cli) {
      const { code, stderr } = await cli;
      assert.equal(code, 0, stderr);
    }
    const loadEnded = Date.now();
    assert.deepEqual(during.filter((s) => s.status !== 201).map((s) => s.text), [], 'no request failed during the rotation');
    const logs = () =>
      server!
        .logs()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; time: number; resealed?: number });
    const started = logs().find((l) => l.msg === 're-sealing every sealed value under the newest key');
    assert.ok(started, 'the re-seal started');
    assert.ok(started.time < loadEnded, 'it ran while requests were served');
    await eventually(async () => logs(), (l) => l.some((line) => line.msg === 'every sealed value is sealed under the newest key'), 'the re-seal finishing', 30_000);
    const finished = logs().find((l) => l.msg === 'every sealed value is sealed under the newest key')!;
    assert.ok(finished.time > loadStarted, `requests were served while it ran (${finished.resealed} values re-sealed)`);
    assert.equal(await server.stop(), 0);

    const status = await runAdmin(['keys', 'status'], { ...base, ENCRYPTION_KEYS: ring });
    assert.equal(status.code, 0, status.stderr);
    const keys = (JSON.parse(status.stdout) as { keys: { fingerprint: string; sealedValues: number; newest: boolean }[] }).keys;
    assert.deepEqual(keys.find((k) => k.fingerprint === id(k0))?.sealedValues, 0, 'the old key seals nothing');
    assert.ok(keys.find((k) => k.fingerprint === id(k1) && k.newest)!.sealedValues > BEFORE * 4);
    const again = await runAdmin(['keys', 'reseal'], { ...base, ENCRYPTION_KEYS: ring });
    assert.equal(again.code, 0, again.stderr);
    assert.equal((JSON.parse(again.stdout) as { resealed: number }).resealed, 0, 'a second pass has nothing to do');

    // The old key dropped: the server starts, and every answer stored before and during the rotation still opens.
    const alone = { ...base, ENCRYPTION_KEY: k1.toString('hex') };
    server = await startServerProcess(alone);
    client = createClient({ baseUrl: server.url, privateKey });
    await replay(client, [...before, ...during]);
    const dupe = await createAccounts(client, 1, () => '521451000');
    assert.equal(dupe[0]!.status, 201, dupe[0]!.text);
    assert.equal(await server.stop(), 0);

    await database.read(async (db) => {
      const box = new SecretBox(k1);
      let opened = 0;
      for (const c of SEALED_COLUMNS) {
        const columns = [...c.key, ...(c.contextColumns ?? [])];
        const rows = await selectRows<Record<string, unknown>>(
          db.db,
          sql`select ${sql.join(columns.map((n) => sql.identifier(n)), sql`, `)}, ${sql.identifier(c.column)} as sealed from ${sql.identifier(c.table)} where ${sql.identifier(c.column)} is not null ${c.where ? sql`and ${c.where}` : sql``}`,
        );
        for (const row of rows) {
          const context = c.context(Object.fromEntries(columns.map((n) => [n, String(row[n])])));
          const sealed = row.sealed;
          if (typeof sealed === 'string') box.open(sealed, context);
          else box.openBytes(Buffer.from(sealed as Uint8Array), context);
          opened++;
        }
      }
      assert.ok(opened > (BEFORE + DURING) * 4, `${opened} sealed values open under the new key alone`);
      // Duplicate SSNs are found by a keyed hash: the one made under the first key matches the one made after it left.
      const hash = new SecretBox(k0).fingerprint('521451000', 'ssn');
      const ssn = await selectRows<{ n: number }>(db.db, sql`select count(*)::int as n from users where ssn_fingerprint = ${hash}`);
      assert.equal(ssn[0]!.n, 2, 'the same SSN, hashed under the first key and after it left, has one fingerprint');
    });

    // The old key alone is refused: it was retired once it sealed nothing.
    const refused = await runAdmin(['keys', 'status'], { ...base, ENCRYPTION_KEY: k0.toString('hex') });
    assert.equal(refused.code, 78, refused.stdout);
    assert.match(refused.stderr, new RegExp(`the newest key of ENCRYPTION_KEYS \\(fingerprint ${id(k0)}\\) was retired`));
  });
});

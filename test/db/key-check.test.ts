import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { keyFingerprint, SecretBox } from '../../src/crypto/secret-box.js';
import { selectRows } from '../../src/db/database.js';
import { checkEncryptionKeys, EncryptionKeyMismatchError } from '../../src/domain/keys/key-check.js';
import { keyStatus } from '../../src/domain/keys/key-status.js';
import { resealAll } from '../../src/domain/keys/reseal.js';
import { backends } from '../harness/backends.js';
import { openTestDatabase, type TestDatabase } from '../harness/db.js';

const id = (key: Buffer) => keyFingerprint(key).slice(0, 16);

// Every process compares its ENCRYPTION_KEYS with the keys the database's secrets are sealed with before it starts
// (src/domain/keys/key-check.ts, docs/key-management.md#rotating-the-sealing-key).
for (const backend of backends()) {
  describe(`the encryption key check [${backend}]`, () => {
    let test: TestDatabase;
    before(async () => {
      test = await openTestDatabase(backend);
    });
    after(() => test.close());
    beforeEach(() => test.database.db.execute(sql`delete from system_settings`));
    const now = new Date();
    const db = () => test.database.db;
    const check = (keys: Buffer[]) => checkEncryptionKeys(db(), new SecretBox(keys), now);
    const refusal = (pattern: RegExp, secret?: Buffer) => (err: unknown) => {
      assert.ok(err instanceof EncryptionKeyMismatchError, String(err));
      assert.match(err.message, pattern);
      if (secret) assert.ok(!err.message.includes(secret.toString('hex').slice(0, 12)), 'the key itself is never shown');
      return true;
    };

    it('records the first key, accepts it again, and refuses another naming both fingerprints', async () => {
      const key = randomBytes(32);
      await check([key]);
      await check([Buffer.from(key)]);
      const other = randomBytes(32);
      await assert.rejects(
        check([other]),
        refusal(new RegExp(`^ENCRYPTION_KEY is not the key this database's secrets were sealed with \\(the database's key has fingerprint ${id(key)}, sealing 1 value\\(s\\); this one ${id(other)}\\)`), key),
      );
      const rows = await selectRows<{ name: string; value: string }>(db(), sql`select name, value from system_settings order by name`);
      assert.deepEqual(rows.map((r) => r.name), ['encryption_key_fingerprint', 'encryption_keys', 'fingerprint_key']);
      assert.equal(rows[0]!.value, keyFingerprint(key));
      assert.deepEqual(Object.keys(JSON.parse(rows[1]!.value) as object), [id(key)]);
      assert.match(rows[2]!.value, new RegExp(`^s2\\.${id(key)}\\.`), 'the lasting fingerprint subkey is kept sealed');
    });

    it('two processes opening a new database with different keys at once: one key is recorded, the other refused', async () => {
      const results = await Promise.allSettled([randomBytes(32), randomBytes(32)].map((k) => check([k])));
      assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
    });

    it('a rotation: a new newest key is recorded, the old one is needed until a re-seal, then retired; keyed hashes never change', async () => {
      const [k0, k1] = [randomBytes(32), randomBytes(32)];
      const before = await check([k0]);
      const ssn = before.fingerprint('123456789', 'ssn');
      const ssnSealed = before.seal('123456789', 'system-setting:probe');
      await db().execute(sql`insert into system_settings (name, value, created_at) values ('probe', ${ssnSealed}, now())`);

      const rotated = await check([k1, k0]);
      assert.equal(rotated.fingerprint('123456789', 'ssn'), ssn, 'duplicate checks, invitation tokens and the sandbox treasury keep their hashes');
      await assert.rejects(check([k1]), refusal(new RegExp(`^ENCRYPTION_KEY is not the key .* fingerprint ${id(k0)}, sealing 1 value`), k0));
      await assert.rejects(check([randomBytes(32), k1]), refusal(new RegExp(`^ENCRYPTION_KEYS lacks the key with fingerprint ${id(k0)}, which still seals 1 value\\(s\\)`)));

      const { resealed, complete } = await resealAll(db(), rotated, { now: () => now });
      assert.deepEqual({ resealed, complete }, { resealed: 1, complete: true }, 'the fingerprint subkey (the probe row is not a sealed column)');
      const status = await keyStatus(db(), rotated);
      assert.deepEqual(
        status.keys.map((k) => [k.fingerprint, k.sealedValues, k.newest]),
        [
          [id(k1), 1, true],
          [id(k0), 0, false],
        ],
      );

      const after = await check([k1]);
      assert.equal(after.fingerprint('123456789', 'ssn'), ssn);
      const known = JSON.parse((await selectRows<{ value: string }>(db(), sql`select value from system_settings where name = 'encryption_keys'`))[0]!.value) as Record<string, { retiredAt?: string }>;
      assert.ok(known[id(k0)]!.retiredAt, 'found to seal nothing, the old key is retired');
      await assert.rejects(check([k0]), refusal(new RegExp(`^the newest key of ENCRYPTION_KEYS \\(fingerprint ${id(k0)}\\) was retired`)));
      await assert.rejects(check([k0, k1]), refusal(new RegExp(`^the newest key of ENCRYPTION_KEYS \\(fingerprint ${id(k0)}\\) was retired`)));
    });

    it('a rolling restart: the new key second everywhere, then first; a process still on the old ring meanwhile starts, and nothing retires early', async () => {
      const [k0, k1] = [randomBytes(32), randomBytes(32)];
      await check([k0]);
      await check([k0, k1]);
      await check([k0]);
      const rotated = await check([k1, k0]);
      await check([k0, k1]);
      await resealAll(db(), rotated, { now: () => now });
      await check([k1]);
      const known = JSON.parse((await selectRows<{ value: string }>(db(), sql`select value from system_settings where name = 'encryption_keys'`))[0]!.value) as Record<string, { retiredAt?: string }>;
      assert.deepEqual([Boolean(known[id(k0)]!.retiredAt), Boolean(known[id(k1)]!.retiredAt)], [true, false]);
    });

    it('a database opened before key rings: its first key derives the lasting subkey, so hashes made before stay valid', async () => {
      const k0 = randomBytes(32);
      await db().execute(sql`insert into system_settings (name, value, created_at) values ('encryption_key_fingerprint', ${keyFingerprint(k0)}, now())`);
      const k1 = randomBytes(32);
      const rotated = await check([k1, k0]);
      assert.equal(rotated.fingerprint('123456789', 'ssn'), new SecretBox(k0).fingerprint('123456789', 'ssn'));
    });
  });
}

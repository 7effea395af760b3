import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { checkEncryptionKey, EncryptionKeyMismatchError } from '../../src/crypto/key-check.js';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { backends } from '../harness/backends.js';
import { openTestDatabase, type TestDatabase } from '../harness/db.js';

// Every process compares its ENCRYPTION_KEY with the database's before it starts (src/crypto/key-check.ts).
for (const backend of backends()) {
  describe(`the encryption key check [${backend}]`, () => {
    let test: TestDatabase;
    before(async () => {
      test = await openTestDatabase(backend);
    });
    after(() => test.close());
    const now = new Date();

    it('records the first key, accepts it again, and refuses another naming both fingerprints', async () => {
      const key = randomBytes(32);
      await checkEncryptionKey(test.database.db, new SecretBox(key), now);
      await checkEncryptionKey(test.database.db, new SecretBox(Buffer.from(key)), now);
      await assert.rejects(checkEncryptionKey(test.database.db, new SecretBox(randomBytes(32)), now), (err: unknown) => {
        assert.ok(err instanceof EncryptionKeyMismatchError);
        assert.match(err.message, /^ENCRYPTION_KEY is not the key this database's secrets were sealed with \(the database's key has fingerprint [0-9a-f]{12}…, this one [0-9a-f]{12}…\)/);
        assert.doesNotMatch(err.message, new RegExp(key.toString('hex').slice(0, 12)), 'the key itself is never shown');
        return true;
      });
      const rows = (await test.database.db.execute(sql`select name, value from system_settings`)) as unknown as { rows: { name: string; value: string }[] };
      assert.deepEqual(rows.rows.map((r) => r.name), ['encryption_key_fingerprint']);
      assert.match(rows.rows[0]!.value, /^[0-9a-f]{32}$/);
      assert.ok(!rows.rows[0]!.value.includes(key.toString('hex').slice(0, 8)), 'a fingerprint, not the key');
    });

    it('two processes opening a new database with different keys at once: one key is recorded, the other refused', async () => {
      await test.database.db.execute(sql`delete from system_settings`);
      const results = await Promise.allSettled([randomBytes(32), randomBytes(32)].map((k) => checkEncryptionKey(test.database.db, new SecretBox(k), now)));
      assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
    });
  });
}

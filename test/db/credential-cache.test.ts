import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CredentialCache } from '../../src/db/credential-cache.js';
import type { Database } from '../../src/db/database.js';
import { insertCredential, updateCredential } from '../../src/db/repositories/credentials.js';
import { insertIntegrator } from '../../src/db/repositories/integrators.js';
import { newId } from '../../src/domain/ids.js';
import { backends } from '../harness/backends.js';
import { openTestDatabase, type TestDatabase } from '../harness/db.js';
import { eventually } from '../harness/eventually.js';

const KEY = `0x02${'ab'.repeat(32)}`;

for (const backend of backends()) {
  describe(`the credential cache's lookup [${backend}]`, () => {
    let test: TestDatabase;
    let database: Database;
    let cache: CredentialCache;
    let credentialId: string;

    before(async () => {
      test = await openTestDatabase(backend);
      database = test.database;
      const integrator = await insertIntegrator(database.db, { id: newId(), name: 'Cache probe' });
      credentialId = newId();
      await insertCredential(database.db, { id: credentialId, integratorId: integrator.id, publicKey: KEY, label: 'probe', scope: 'read_write' });
      cache = new CredentialCache(database);
      await cache.start();
    });
    after(async () => {
      await cache.stop();
      await test.close();
    });

    it('reads on a miss (a promise), answers a hit at once (no promise), and reads again after a change', async () => {
      const first = cache.lookup(KEY);
      assert.ok(first instanceof Promise, 'a miss is a read');
      assert.equal((await first)?.id, credentialId);
      const hit = cache.lookup(KEY);
      assert.ok(!(hit instanceof Promise), 'a hit is the row itself');
      assert.equal(hit.active, true);

      await updateCredential(database.db, credentialId, { active: false });
      // The change's NOTIFY drops the entry: the next lookup reads, and sees the change.
      const { found } = await eventually(
        () => Promise.resolve({ found: cache.lookup(KEY) }),
        ({ found }) => found instanceof Promise,
        'the change drops the cached entry',
      );
      assert.equal((await found)?.active, false);
      cache.clear();
      assert.ok(cache.lookup(`0x03${'cd'.repeat(32)}`) instanceof Promise, 'an unknown key is always a read');
    });
  });
}

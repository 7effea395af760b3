import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { idempotencyKeys } from '../../src/db/schema/index.js';
import { listCredentials as listCredentialRows } from '../../src/db/repositories/credentials.js';
import type { MutationContext } from '../../src/domain/context.js';
import { issueCredential } from '../../src/domain/credentials/credentials.js';
import { ApiError } from '../../src/domain/errors.js';
import { backends } from '../harness/backends.js';
import { eventsOfType } from '../harness/db.js';
import { useTenants } from '../harness/tenants.js';

for (const backend of backends()) {
  describe(`a mutation and its idempotency claim commit together [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);

    function ctx(lockedAt?: Date): MutationContext {
      return {
        db: server.database,
        now: server.clock.now(),
        secrets: new SecretBox(randomBytes(32)),
        policy: { highRiskCountries: new Set() },
        actor: { kind: 'integrator', integratorId: acme.integratorId },
        ...(lockedAt ? { idempotency: { integratorId: acme.integratorId, key: 'k1', lockedAt } } : {}),
      };
    }

    /** An in-progress claim of the key made at createdAt, whose token is now the one of lockedAt. */
    async function claim(key: string, createdAt: Date, lockedAt: Date): Promise<void> {
      await server.database.db.insert(idempotencyKeys).values({
        integratorId: acme.integratorId,
        key,
        fingerprint: 'f',
        state: 'in_progress',
        lockedAt,
        createdAt,
        expiresAt: new Date(createdAt.getTime() + 86_400_000),
      });
    }

    it('marks the claim committed in the same transaction as the change', async () => {
      const lockedAt = new Date(Date.UTC(2026, 0, 1));
      await claim('k1', lockedAt, lockedAt);
      await issueCredential(ctx(lockedAt), { label: 'committed', scope: 'read_only' });
      const [row] = await server.database.db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.integratorId, acme.integratorId), eq(idempotencyKeys.key, 'k1')));
      assert.equal(row!.state, 'committed');
    });

    it('rolls the change back when a retry took the claim over meanwhile', async () => {
      const lockedAt = new Date(Date.UTC(2026, 0, 2));
      // The retry's token: the original request still holds an older one.
      await claim('k2', lockedAt, new Date(lockedAt.getTime() + 61_000));
      const before = (await listCredentialRows(server.database.db, acme.integratorId)).length;
      const eventsBefore = (await eventsOfType(server.database, acme.integratorId, 'credential.created')).length;
      const original = { ...ctx(), idempotency: { integratorId: acme.integratorId, key: 'k2', lockedAt } };
      await assert.rejects(issueCredential(original, { label: 'loser', scope: 'read_only' }), (err: unknown) => {
        assert.ok(err instanceof ApiError);
        assert.equal(err.code, 'idempotency_request_in_progress');
        return true;
      });
      assert.equal((await listCredentialRows(server.database.db, acme.integratorId)).length, before, 'no credential');
      assert.equal((await eventsOfType(server.database, acme.integratorId, 'credential.created')).length, eventsBefore, 'no event');
    });
  });
}

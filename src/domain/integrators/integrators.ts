import type { Database } from '../../db/database.js';
import * as repo from '../../db/repositories/integrators.js';
import { insertCredentialWithEvent, type CredentialView, type Scope } from '../credentials/credentials.js';
import { recordEvent } from '../events/record-event.js';
import { newId } from '../ids.js';

export interface CreatedIntegrator {
  integratorId: string;
  name: string;
  publicKey: string;
  scope: Scope;
  credential: CredentialView;
  privateKey?: string;
}

/** Operator bootstrap: an integrator and its first credential, with their events, in one transaction. */
export function createIntegrator(
  db: Database,
  input: { name: string; publicKey?: string; scope: Scope; label?: string },
  now: Date,
): Promise<CreatedIntegrator> {
  return db.db.transaction(async (tx) => {
    const integrator = await repo.insertIntegrator(tx, { id: newId(), name: input.name, createdAt: now });
    await recordEvent(tx, {
      integratorId: integrator.id,
      type: 'integrator.created',
      objectType: 'integrator',
      objectId: integrator.id,
      object: { integratorId: integrator.id, name: integrator.name, createdAt: integrator.createdAt.toISOString() },
      at: now,
    });
    const issued = await insertCredentialWithEvent(
      tx,
      integrator.id,
      { label: input.label ?? 'bootstrap', scope: input.scope, ...(input.publicKey !== undefined ? { publicKey: input.publicKey } : {}) },
      now,
    );
    return {
      integratorId: integrator.id,
      name: integrator.name,
      publicKey: issued.credential.publicKey,
      scope: issued.credential.scope,
      credential: issued.credential,
      ...(issued.privateKey ? { privateKey: issued.privateKey } : {}),
    };
  });
}

export async function listIntegrators(db: Database): Promise<{ integratorId: string; name: string; createdAt: string }[]> {
  return (await repo.listIntegrators(db.db)).map((r) => ({ integratorId: r.id, name: r.name, createdAt: r.createdAt.toISOString() }));
}

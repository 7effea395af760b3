/**
 * The rows the scale loader copies, made through the real API first (signed, as any integrator would): a custodial
 * individual account with two documents, an entity account with its representative, and a webhook subscription.
 * Copies of rows the service wrote itself are valid for every constraint and every view, whatever columns the
 * schema gains later (bench/lib/scale-load.ts copies whole rows and overrides a few columns).
 */
import { berliner, companyInfo, entityDocs, personDocs, signedAt } from '../../test/harness/fixtures.js';
import type { Backend } from './backend.js';
import { postJson } from './signing.js';
import type { SqlClient } from './scale-load.js';

export interface Templates {
  integratorId: string;
  userId: string;
  accountId: string;
  entityAccountId: string;
  personId: string;
  subscriptionId: string;
}

/** Through the API at `target`, signed with its integrator's key. */
export async function createTemplates(target: Pick<Backend, 'baseUrl' | 'key'>, client: SqlClient): Promise<Templates> {
  const { baseUrl, key } = target;
  const user = await postJson<{ userId: string; accountId: string }>(baseUrl, key, '/v1/submit/create-individual-account', {
    userInfo: berliner({ email: 'scale.template@example.de' }),
    serviceTermsSignedAt: signedAt(),
    verificationDocuments: personDocs('DEU'),
  });
  const entity = await postJson<{ accountId: string }>(baseUrl, key, '/v1/submit/create-entity-account', {
    entityInfo: companyInfo(),
    entityDocuments: entityDocs(),
    serviceTermsSignedAt: signedAt(),
  });
  const person = await postJson<{ beneficiaryId: string }>(baseUrl, key, '/v1/submit/create-associated-person', {
    accountId: entity.accountId,
    userInfo: berliner({ email: 'scale.representative@example.de' }),
    beneficiaryDetails: { beneficiaryType: ['representative'], title: 'Director' },
    verificationDocuments: personDocs('DEU'),
  });
  // Never delivered (the bench's API runs without the webhook worker); loopback is allowed in the sandbox.
  const { subscription } = await postJson<{ subscription: { id: string } }>(baseUrl, key, '/v1/webhooks/subscriptions', {
    name: 'scale',
    url: 'http://127.0.0.1:9/scale',
    eventTypes: ['user.*', 'transaction.*'],
  });
  const { rows } = await client.query<{ integrator_id: string }>('select integrator_id from accounts where id = $1', [user.accountId]);
  return {
    integratorId: rows[0]!.integrator_id,
    userId: user.userId,
    accountId: user.accountId,
    entityAccountId: entity.accountId,
    personId: person.beneficiaryId,
    subscriptionId: subscription.id,
  };
}

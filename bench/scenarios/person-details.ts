/**
 * get-associated-person-details: an entity account with complete company info and documents, and one
 * representative with a passport and a proof of address, created through the API (signed) before the load.
 */
import { berliner, companyInfo, entityDocs, personDocs, signedAt } from '../../test/harness/fixtures.js';
import type { Backend } from '../lib/backend.js';
import type { LoadSpec } from '../lib/load.js';
import { postJson, signedGetHeaders } from '../lib/signing.js';
import { signedGet } from './signed-get.js';

export const PERSON_DETAILS = 'get-associated-person-details';

/** Creates the entity and its representative through the API; answers the signed path to load (with its query). */
export async function setUpPersonDetails(backend: Backend): Promise<string> {
  const { baseUrl, key } = backend;
  const entity = await postJson<{ accountId: string }>(baseUrl, key, '/v1/submit/create-entity-account', {
    entityInfo: companyInfo(),
    entityDocuments: entityDocs(),
    serviceTermsSignedAt: signedAt(),
  });
  const person = await postJson<{ beneficiaryId: string }>(baseUrl, key, '/v1/submit/create-associated-person', {
    accountId: entity.accountId,
    userInfo: berliner({ email: 'jonas.becker.rep@example.de' }),
    beneficiaryDetails: { beneficiaryType: ['representative'], title: 'Director' },
    verificationDocuments: personDocs('DEU'),
  });
  const path = `/v1/query/${PERSON_DETAILS}?beneficiaryId=${person.beneficiaryId}`;
  // The answer must be the full person (both documents), or the load would measure something smaller.
  const res = await fetch(`${baseUrl}${path}`, { headers: signedGetHeaders(key, path), signal: AbortSignal.timeout(5000) });
  const view = (await res.json()) as { beneficiaryId?: string; verificationDocuments?: unknown[] };
  if (res.status !== 200 || view.beneficiaryId !== person.beneficiaryId || view.verificationDocuments?.length !== 2) {
    throw new Error(`${PERSON_DETAILS} before the load: ${res.status} ${JSON.stringify(view).slice(0, 500)}`);
  }
  return path;
}

/** The load of `path` (setUpPersonDetails) against `baseUrl`: the API, or its bare equivalent. */
export const personDetailsLoad = (label: string, baseUrl: string, path: string, key: Backend['key']): LoadSpec => signedGet(label, baseUrl, path, key);

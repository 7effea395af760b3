import type { Executor } from '../../db/database.js';
import { listDocumentsOfOwners } from '../../db/repositories/documents.js';
import { listPersons } from '../../db/repositories/entities.js';
import type { BeneficiaryDetails, UserInfo } from '../onboarding/types.js';
import type { PersonState } from './requirements.js';

/** An entity's associated persons (not removed) with their documents, for its requirements: two queries. */
export async function personStatesOf(db: Executor, entityId: string): Promise<PersonState[]> {
  const persons = await listPersons(db, entityId);
  const documents = await listDocumentsOfOwners(
    db,
    'associated_person',
    persons.map((p) => p.id),
  );
  return persons.map((p) => ({
    id: p.id,
    userInfo: p.userInfo as UserInfo,
    beneficiaryType: (p.beneficiaryDetails as BeneficiaryDetails).beneficiaryType,
    documents: documents.filter((d) => d.ownerId === p.id),
    status: p.verificationStatus,
  }));
}

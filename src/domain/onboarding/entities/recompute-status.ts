import type { Executor } from '../../../db/database.js';
import { listDocuments } from '../../../db/repositories/documents.js';
import { findEntity, listPersons, type EntityRow } from '../../../db/repositories/entities.js';
import type { Policy } from '../../context.js';
import { afterDataChange } from '../../verification/after-data-change.js';
import { checkIfEnteredReview } from '../../verification/checks/run-checks.js';
import { applyTransition, type Cause, type SubjectRef } from '../../verification/apply-transition.js';
import { usableDocumentTypes } from '../document-store.js';
import { missingCompanyData, missingEntityDocuments } from '../requirements.js';
import { personsReady } from '../status.js';
import { syncEntityRequirements } from '../../requirements/sync.js';
import type { BeneficiaryDetails, EntityInfo } from '../types.js';

/**
 * Re-derives an entity's status after a change to its data, documents or persons, inside the changing
 * transaction: completeness while pre-review or after a resubmission request, then whether its persons are
 * ready (a representative, and every UBO and representative active).
 */
export async function recomputeEntityStatus(tx: Executor, entity: EntityRow, cause: Cause, policy: Policy, at: Date): Promise<EntityRow> {
  const info = entity.entityInfo as EntityInfo;
  const documents = await listDocuments(tx, 'entity', entity.id);
  const complete = missingEntityDocuments(usableDocumentTypes(documents), info).length === 0 && missingCompanyData(info).length === 0;
  const subject: SubjectRef = { type: 'entity', id: entity.id, integratorId: entity.integratorId, status: entity.verificationStatus };
  await afterDataChange(tx, subject, complete, cause, at);

  const persons = await listPersons(tx, entity.id);
  const ready = personsReady(persons.map((p) => ({ beneficiaryType: (p.beneficiaryDetails as BeneficiaryDetails).beneficiaryType, verificationStatus: p.verificationStatus })));
  const system: Cause = { actorType: 'system', reason: ready ? 'every associated person is active' : 'an associated person is not active' };
  if (subject.status === 'awaiting_associated_person_information' && ready) await applyTransition(tx, subject, { type: 'persons_ready' }, system, at);
  else if (subject.status === 'under_review' && !ready) await applyTransition(tx, subject, { type: 'persons_not_ready' }, system, at);

  await checkIfEnteredReview(tx, subject, entity.verificationStatus, policy, at);
  await syncEntityRequirements(tx, entity.integratorId, entity.id, at);
  if (subject.status === entity.verificationStatus) return entity;
  return (await findEntity(tx, entity.integratorId, entity.id))!;
}

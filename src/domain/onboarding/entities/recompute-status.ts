import type { Executor } from '../../../db/database.js';
import { listDocuments } from '../../../db/repositories/documents.js';
import { listPersons, updateEntity, type EntityRow } from '../../../db/repositories/entities.js';
import { recordEvent } from '../../events/record-event.js';
import { missingCompanyData, missingEntityDocuments } from '../requirements.js';
import { entityStatus, nextStatus } from '../status.js';
import type { BeneficiaryDetails, EntityInfo } from '../types.js';

/**
 * Re-derives an entity's status from its data, documents and persons after any change to them, recording
 * entity.verification_status.changed when it moves. Call it inside the changing transaction.
 */
export async function recomputeEntityStatus(tx: Executor, entity: EntityRow, at: Date): Promise<EntityRow> {
  const info = entity.entityInfo as EntityInfo;
  const documents = await listDocuments(tx, 'entity', entity.id);
  const persons = await listPersons(tx, entity.id);
  const computed = entityStatus(
    missingEntityDocuments(
      documents.map((d) => d.documentType),
      info,
    ),
    missingCompanyData(info),
    persons.map((p) => ({ beneficiaryType: (p.beneficiaryDetails as BeneficiaryDetails).beneficiaryType, verificationStatus: p.verificationStatus })),
  );
  const next = nextStatus(entity.verificationStatus, computed);
  if (next === entity.verificationStatus) return entity;
  const updated = await updateEntity(tx, entity.id, { verificationStatus: next, updatedAt: at });
  await recordEvent(tx, {
    integratorId: entity.integratorId,
    type: 'entity.verification_status.changed',
    objectType: 'entity',
    objectId: entity.id,
    object: { entityId: entity.id, verificationStatus: next },
    previousAttributes: { verificationStatus: entity.verificationStatus },
    at,
  });
  return updated;
}

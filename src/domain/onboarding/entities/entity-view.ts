import type { VerificationStatus } from '../../../db/schema/index.js';
import type { AccountRow } from '../../../db/repositories/accounts.js';
import type { DocumentMeta } from '../../../db/repositories/documents.js';
import type { EntityRow, PersonRow } from '../../../db/repositories/entities.js';
import { toDocumentView, usableDocumentTypes } from '../document-store.js';
import { missingCompanyData, missingEntityDocuments } from '../requirements.js';
import { entityRequirements, type PersonState, type Requirements } from '../../requirements/requirements.js';
import type { BeneficiaryDetails, DocumentView, EntityInfo, UserInfo } from '../types.js';

export interface EntityAccountView {
  entityId: string;
  accountId: string;
  verificationStatus: VerificationStatus;
  entityInfo: EntityInfo;
  entityDocuments: DocumentView[];
  missingDocuments?: string[];
  missingCompanyData?: string[];
  requirements: Requirements;
}

export interface AssociatedPersonSummary {
  beneficiaryId: string;
  verificationStatus: VerificationStatus;
  firstName: string;
  lastName: string;
  beneficiaryDetails: BeneficiaryDetails;
}

/** `persons`: its associated persons with their documents, whose requirements are part of the entity's. */
export function toEntityAccountView(entity: EntityRow, account: AccountRow, documents: DocumentMeta[], persons: readonly PersonState[]): EntityAccountView {
  const info = entity.entityInfo as EntityInfo;
  const view: EntityAccountView = {
    entityId: entity.id,
    accountId: account.id,
    verificationStatus: entity.verificationStatus,
    entityInfo: info,
    entityDocuments: documents.map(toDocumentView),
    requirements: { currentlyDue: [], pastDue: [], pendingVerification: [], errors: [] },
  };
  const docs = missingEntityDocuments(
    usableDocumentTypes(documents),
    info,
  );
  const data = missingCompanyData(info);
  // The spec: present only when something is missing.
  if (docs.length > 0) view.missingDocuments = docs;
  if (data.length > 0) view.missingCompanyData = data;
  view.requirements = entityRequirements(info, documents, entity.verificationStatus, persons);
  return view;
}

export function personSummary(person: PersonRow): AssociatedPersonSummary {
  const info = person.userInfo as UserInfo;
  return {
    beneficiaryId: person.id,
    verificationStatus: person.verificationStatus,
    firstName: info.firstName,
    lastName: info.lastName,
    beneficiaryDetails: person.beneficiaryDetails as BeneficiaryDetails,
  };
}

import type { Executor } from '../../db/database.js';
import { findAccount, findAccountByEntity, findAccountByUser } from '../../db/repositories/accounts.js';
import { findSubjectIntegrator, type SubjectType } from '../../db/repositories/verification.js';
import { listDocuments, type DocumentOwnerType } from '../../db/repositories/documents.js';
import { findEntity, findPerson, listPersons, type EntityRow } from '../../db/repositories/entities.js';
import { findUser } from '../../db/repositories/users.js';
import { notFound } from '../errors.js';
import { usableDocumentTypes } from '../onboarding/document-store.js';
import { missingCompanyData, missingEntityDocuments, missingPersonRequirements } from '../onboarding/requirements.js';
import { personsReady } from '../onboarding/status.js';
import type { BeneficiaryDetails, EntityInfo, UserInfo } from '../onboarding/types.js';
import type { SubjectRef } from './apply-transition.js';

/** The record a verification action addresses, locked, with what it still lacks. */
export interface LoadedSubject {
  ref: SubjectRef;
  documentOwner: DocumentOwnerType;
  missingDocuments: string[];
  missingCompanyData: string[];
  /** Entities: a representative exists and every UBO and representative is active. */
  personsReady: boolean;
  entity?: EntityRow;
  /** Associated persons: the entity they belong to. */
  parentEntity?: EntityRow;
  /** How the caller named it, echoed in responses. */
  key: { accountId: string } | { beneficiaryId: string };
}

async function loadEntity(tx: Executor, entity: EntityRow, accountId: string): Promise<LoadedSubject> {
  const info = entity.entityInfo as EntityInfo;
  const persons = await listPersons(tx, entity.id);
  return {
    ref: { type: 'entity', id: entity.id, integratorId: entity.integratorId, status: entity.verificationStatus },
    documentOwner: 'entity',
    missingDocuments: missingEntityDocuments(usableDocumentTypes(await listDocuments(tx, 'entity', entity.id)), info),
    missingCompanyData: missingCompanyData(info),
    personsReady: personsReady(persons.map((p) => ({ beneficiaryType: (p.beneficiaryDetails as BeneficiaryDetails).beneficiaryType, verificationStatus: p.verificationStatus }))),
    entity,
    key: { accountId },
  };
}

/** Resolves `{accountId}` (a user's or an entity's account) or `{beneficiaryId}`; foreign and missing are one 404. */
export async function loadSubject(tx: Executor, integratorId: string, input: { accountId?: string; beneficiaryId?: string }): Promise<LoadedSubject> {
  if (input.beneficiaryId) {
    const person = await findPerson(tx, integratorId, input.beneficiaryId, { lock: true });
    if (!person) throw notFound('Associated person');
    const docs = await listDocuments(tx, 'associated_person', person.id);
    return {
      ref: { type: 'associated_person', id: person.id, integratorId, status: person.verificationStatus },
      documentOwner: 'associated_person',
      missingDocuments: missingPersonRequirements(person.userInfo as UserInfo, usableDocumentTypes(docs)),
      missingCompanyData: [],
      personsReady: true,
      parentEntity: (await findEntity(tx, integratorId, person.entityId, { lock: true }))!,
      key: { beneficiaryId: person.id },
    };
  }
  const account = input.accountId ? await findAccount(tx, integratorId, input.accountId) : undefined;
  if (!account) throw notFound('Account');
  if (account.type === 'entity') return loadEntity(tx, (await findEntity(tx, integratorId, account.entityId!, { lock: true }))!, account.id);
  const user = (await findUser(tx, integratorId, account.userId!, { lock: true }))!;
  const docs = await listDocuments(tx, 'user', user.id);
  return {
    ref: { type: 'user', id: user.id, integratorId, status: user.verificationStatus },
    documentOwner: 'user',
    missingDocuments: missingPersonRequirements(user.userInfo as UserInfo, usableDocumentTypes(docs)),
    missingCompanyData: [],
    personsReady: true,
    key: { accountId: account.id },
  };
}

/** The same, addressed by subject type and id across integrators (operators); undefined when there is none. */
export async function loadSubjectById(tx: Executor, type: SubjectType, id: string): Promise<LoadedSubject | undefined> {
  const integratorId = await findSubjectIntegrator(tx, type, id);
  if (!integratorId) return undefined;
  if (type === 'associated_person') return loadSubject(tx, integratorId, { beneficiaryId: id });
  const account = type === 'user' ? await findAccountByUser(tx, id) : await findAccountByEntity(tx, id);
  return account ? loadSubject(tx, integratorId, { accountId: account.id }) : undefined;
}

import type { Executor } from '../../../db/database.js';
import { listDocuments, listDocumentsOfOwners, type DocumentMeta } from '../../../db/repositories/documents.js';
import { findEntity, listPersons, type EntityRow, type PersonRow } from '../../../db/repositories/entities.js';
import { ownedEntityAccounts } from '../../../db/repositories/members.js';
import type { OnboardingLinkRow } from '../../../db/repositories/onboarding-links.js';
import type { UserRow } from '../../../db/repositories/users.js';
import type { BeneficiaryDetails, EntityInfo, UserInfo } from '../../onboarding/types.js';
import { ENTITY_DOCUMENT_NAMES, ENTITY_FIELDS, entityRequirements, REPRESENTATIVE_REQUIREMENT, type Requirements } from '../../requirements/requirements.js';

// The entity flow's view of its company (docs/onboarding-links.md#the-entity-flow). The link keeps only its user
// (the representative); the entity is the one that user owns: the company step makes the representative the owner
// of the entity account it creates, and a link made for an existing representative finds the entity it owns (the
// newest, when it owns several).

export interface EntityFlowPerson {
  row: PersonRow;
  documents: DocumentMeta[];
}

export interface EntityFlowState {
  entity: EntityRow;
  accountId: string;
  /** The entity's requirements, its persons' included. */
  requirements: Requirements;
  persons: EntityFlowPerson[];
}

declare module './flow-link.js' {
  interface FlowLink {
    /** An entity link's company, once there is one (undefined for an individual link, or before the company step). */
    entity?: EntityFlowState;
  }
}

/** The company of an entity link's user, read through `db`; `{}` for an individual link or before there is one. */
export async function entityFlowStateOf(db: Executor, row: OnboardingLinkRow, user: UserRow | undefined): Promise<{ entity?: EntityFlowState }> {
  if (row.type !== 'entity' || !user) return {};
  const [owned] = await ownedEntityAccounts(db, row.integratorId, user.id);
  if (!owned) return {};
  const entity = (await findEntity(db, row.integratorId, owned.entityId))!;
  const persons = await listPersons(db, entity.id);
  const documents = await listDocumentsOfOwners(
    db,
    'associated_person',
    persons.map((p) => p.id),
  );
  const flowPersons = persons.map((p) => ({ row: p, documents: documents.filter((d) => d.ownerId === p.id) }));
  const states = flowPersons.map((p) => ({
    id: p.row.id,
    userInfo: p.row.userInfo as UserInfo,
    beneficiaryType: (p.row.beneficiaryDetails as BeneficiaryDetails).beneficiaryType,
    documents: p.documents,
    status: p.row.verificationStatus,
  }));
  const requirements = entityRequirements(entity.entityInfo as EntityInfo, await listDocuments(db, 'entity', entity.id), entity.verificationStatus, states);
  return { entity: { entity, accountId: owned.accountId, requirements, persons: flowPersons } };
}

const PERSON_REQUIREMENT = /^[0-9a-f-]{36}\./;
const dueOf = (state: EntityFlowState | undefined) => state?.requirements.currentlyDue ?? [];

/** The entity still owes company data (or has no company yet). */
export const owesCompany = (state: EntityFlowState | undefined) => !state || dueOf(state).some((n) => ENTITY_FIELDS.includes(n));
const UNSUBMITTED = ['not_started', 'init', 'awaiting_information'];
/**
 * It has no representative, a person owes something, or something is complete but not submitted yet (the company
 * or a person before its verification was requested): the persons' list is where the customer confirms and submits.
 */
export const owesPersons = (state: EntityFlowState | undefined) =>
  !state ||
  dueOf(state).some((n) => n === REPRESENTATIVE_REQUIREMENT || PERSON_REQUIREMENT.test(n)) ||
  UNSUBMITTED.includes(state.entity.verificationStatus) ||
  state.persons.some((p) => p.row.verificationStatus === 'init');
/** The persons' requirements only (the list's "continue" is refused while any is due). */
export const personsDue = (state: EntityFlowState) => dueOf(state).filter((n) => n === REPRESENTATIVE_REQUIREMENT || PERSON_REQUIREMENT.test(n));
/** It owes one of the four document groups. */
export const owesDocuments = (state: EntityFlowState | undefined) => !state || dueOf(state).some((n) => Object.values(ENTITY_DOCUMENT_NAMES).includes(n));
/** What one person owes, by its own requirement names (`document.identity`, …). */
export const personDue = (state: EntityFlowState, personId: string) =>
  dueOf(state)
    .filter((n) => n.startsWith(`${personId}.`))
    .map((n) => n.slice(personId.length + 1));

import { isDeepStrictEqual } from 'node:util';
import type { VerificationStatus } from '../../db/schema/index.js';
import { usableDocumentTypes } from '../onboarding/document-store.js';
import { missingCompanyData, missingEntityDocuments, missingPersonRequirements } from '../onboarding/requirements.js';
import type { EntityInfo, UserInfo } from '../onboarding/types.js';

/**
 * What a customer still owes, by stable requirement names (docs/onboarding-links.md#requirements), in the shape
 * Stripe's `requirements` made familiar: due now, of those the ones holding verification up, what is being
 * verified, and why a requirement given was refused.
 */
export interface Requirements {
  currentlyDue: string[];
  pastDue: string[];
  pendingVerification: string[];
  errors: { requirement: string; reason: string }[];
}

/** A person's requirement names, by the codes of missingPersonRequirements (the same rules as request-verification's 422). */
const PERSON_NAMES: Record<string, string> = {
  IDENTITY_DOCUMENT: 'document.identity',
  PROOF_OF_ADDRESS_DOCUMENT: 'document.proofOfAddress',
  USER_INFO_BIRTH_DATE: 'birthDate',
  USER_INFO_NATIONALITY: 'nationality',
  USER_INFO_RESIDENTIAL_ADDRESS: 'residentialAddress',
};
const PERSON_ORDER = ['birthDate', 'nationality', 'residentialAddress', 'document.identity', 'document.proofOfAddress'];

/** An entity's document groups (the spec's codes) by name; its missing data by the entityInfo field path itself. */
export const ENTITY_DOCUMENT_NAMES: Record<string, string> = {
  COMPANY_DETAILS_DOCUMENT: 'document.companyDetails',
  OWNERSHIP_STRUCTURE_DOCUMENT: 'document.ownershipStructure',
  SOURCE_OF_FUNDS_DOCUMENT: 'document.sourceOfFunds',
  PROOF_OF_ADDRESS_DOCUMENT: 'document.proofOfAddress',
};

/** Which requirement a document answers (a refused one's reason is that requirement's error). */
const DOCUMENT_REQUIREMENT: Record<string, string> = {
  passport: 'document.identity',
  national_id_front: 'document.identity',
  national_id_back: 'document.identity',
  proof_of_address: 'document.proofOfAddress',
  incorporation_cert: 'document.companyDetails',
  incorporation_articles: 'document.companyDetails',
  state_registry: 'document.companyDetails',
  shareholder_registry: 'document.ownershipStructure',
  information_statement: 'document.ownershipStructure',
  trust_agreement: 'document.ownershipStructure',
  partnership_agreement: 'document.ownershipStructure',
  source_of_funds: 'document.sourceOfFunds',
};

interface DocumentState {
  documentType: string;
  errors: string[] | null;
}

const NONE = (): Requirements => ({ currentlyDue: [], pastDue: [], pendingVerification: [], errors: [] });

/** Statuses whose customer is being verified: what was given is pending verification. */
const IN_REVIEW: readonly VerificationStatus[] = ['under_review', 'awaiting_associated_person_information'];

function derive(all: readonly string[], missing: readonly string[], documents: readonly DocumentState[], status: VerificationStatus): Requirements {
  // A rejected customer owes nothing that would change the decision; an operator reopens it.
  if (status === 'rejected') return NONE();
  const due = all.filter((name) => missing.includes(name));
  const errors = documents.flatMap((d) => {
    const requirement = DOCUMENT_REQUIREMENT[d.documentType];
    // A refused document whose requirement a newer one met is history, not an error.
    return requirement && due.includes(requirement) ? (d.errors ?? []).map((reason) => ({ requirement, reason })) : [];
  });
  return {
    currentlyDue: due,
    // An operator asked for these again: verification waits for them.
    pastDue: status === 'resubmission_requested' ? due : [],
    pendingVerification: IN_REVIEW.includes(status) ? all.filter((name) => !missing.includes(name)) : [],
    errors,
  };
}

export function personRequirements(userInfo: UserInfo, documents: readonly DocumentState[], status: VerificationStatus): Requirements {
  const missing = missingPersonRequirements(userInfo, usableDocumentTypes(documents)).map((code) => PERSON_NAMES[code] ?? code);
  return derive(PERSON_ORDER, missing, documents, status);
}

/** The entity's own data requirements: its required entityInfo fields by path. */
export const ENTITY_FIELDS = missingCompanyData({} as EntityInfo);

/** An entity needs a representative among its associated persons before its review can start (personsReady). */
export const REPRESENTATIVE_REQUIREMENT = 'associatedPersons.representative';

/** An associated person as the entity's requirements see it. */
export interface PersonState {
  id: string;
  userInfo: UserInfo;
  beneficiaryType: readonly string[];
  documents: readonly DocumentState[];
  status: VerificationStatus;
}

/** A person's requirements inside its entity's: each name prefixed with the person's id, as Stripe names a person's. */
function ofPerson(person: PersonState): Requirements {
  const own = personRequirements(person.userInfo, person.documents, person.status);
  const name = (requirement: string) => `${person.id}.${requirement}`;
  return {
    currentlyDue: own.currentlyDue.map(name),
    pastDue: own.pastDue.map(name),
    pendingVerification: own.pendingVerification.map(name),
    errors: own.errors.map((e) => ({ requirement: name(e.requirement), reason: e.reason })),
  };
}

/**
 * An entity's own fields and document groups, a representative when it has none, then each associated person's
 * requirements under its id (each by the person's own status: its review is its own).
 */
export function entityRequirements(
  entityInfo: EntityInfo,
  documents: readonly DocumentState[],
  status: VerificationStatus,
  persons: readonly PersonState[],
): Requirements {
  if (status === 'rejected') return NONE();
  const groups = Object.values(ENTITY_DOCUMENT_NAMES);
  const missingDocuments = missingEntityDocuments(usableDocumentTypes(documents), entityInfo)
    .map((code) => ENTITY_DOCUMENT_NAMES[code])
    .filter((name): name is string => name !== undefined);
  const representative = persons.some((p) => p.beneficiaryType.includes('representative')) ? [] : [REPRESENTATIVE_REQUIREMENT];
  const own = derive([...ENTITY_FIELDS, ...groups, REPRESENTATIVE_REQUIREMENT], [...missingCompanyData(entityInfo), ...missingDocuments, ...representative], documents, status);
  return persons.map(ofPerson).reduce(
    (all, p) => ({
      currentlyDue: [...all.currentlyDue, ...p.currentlyDue],
      pastDue: [...all.pastDue, ...p.pastDue],
      pendingVerification: [...all.pendingVerification, ...p.pendingVerification],
      errors: [...all.errors, ...p.errors],
    }),
    own,
  );
}

/** The same requirements, whatever the order of their keys (jsonb keeps its own); the lists are built in a fixed order. */
export const sameRequirements = (a: unknown, b: Requirements): boolean => isDeepStrictEqual(a, b);

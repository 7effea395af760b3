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
const ENTITY_DOCUMENT_NAMES: Record<string, string> = {
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

/** Statuses whose customer is being verified: what was given is pending verification. */
const IN_REVIEW: readonly VerificationStatus[] = ['under_review', 'awaiting_associated_person_information'];

function derive(all: readonly string[], missing: readonly string[], documents: readonly DocumentState[], status: VerificationStatus): Requirements {
  // A rejected customer owes nothing that would change the decision; an operator reopens it.
  if (status === 'rejected') return { currentlyDue: [], pastDue: [], pendingVerification: [], errors: [] };
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

const ENTITY_FIELDS = missingCompanyData({} as EntityInfo);

export function entityRequirements(entityInfo: EntityInfo, documents: readonly DocumentState[], status: VerificationStatus): Requirements {
  const groups = Object.values(ENTITY_DOCUMENT_NAMES);
  const missingDocuments = missingEntityDocuments(usableDocumentTypes(documents), entityInfo)
    .map((code) => ENTITY_DOCUMENT_NAMES[code])
    .filter((name): name is string => name !== undefined);
  return derive([...ENTITY_FIELDS, ...groups], [...missingCompanyData(entityInfo), ...missingDocuments], documents, status);
}

/** The same requirements, whatever the order of their keys (jsonb keeps its own); the lists are built in a fixed order. */
export const sameRequirements = (a: unknown, b: Requirements): boolean => isDeepStrictEqual(a, b);

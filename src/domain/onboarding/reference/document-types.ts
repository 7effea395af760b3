/** UserDocumentType, exactly as the spec lists it. */
export const USER_DOCUMENT_TYPES = ['passport', 'national_id_front', 'national_id_back', 'proof_of_address', 'other'] as const;

/** EntityDocumentType, exactly as the spec lists it. */
export const ENTITY_DOCUMENT_TYPES = [
  'directors_registry', 'good_standing_cert', 'incorporation_articles', 'incorporation_cert', 'incumbency_cert',
  'information_statement', 'partnership_agreement', 'power_of_attorney', 'proof_of_address', 'shareholder_registry',
  'source_of_funds', 'state_registry', 'trust_agreement', 'other',
] as const;

export type UserDocumentType = (typeof USER_DOCUMENT_TYPES)[number];
export type EntityDocumentType = (typeof ENTITY_DOCUMENT_TYPES)[number];

/** DocumentType: either kind, each value once (proof_of_address and other belong to both). */
export const DOCUMENT_TYPES = [...new Set([...USER_DOCUMENT_TYPES, ...ENTITY_DOCUMENT_TYPES])] as readonly (
  | UserDocumentType
  | EntityDocumentType
)[];

/**
 * Which kind a document type belongs to; `both` for proof_of_address and other, null for an unknown value.
 * Lets a caller reject e.g. a passport among entity documents.
 */
export function documentTypeKind(type: unknown): 'user' | 'entity' | 'both' | null {
  const user = (USER_DOCUMENT_TYPES as readonly unknown[]).includes(type);
  const entity = (ENTITY_DOCUMENT_TYPES as readonly unknown[]).includes(type);
  if (user && entity) return 'both';
  if (user) return 'user';
  if (entity) return 'entity';
  return null;
}

/**
 * The four entity document groups required before verification can be requested, keyed by the code
 * reported in `missingDocuments`; a group is satisfied by any one of its types.
 */
export const REQUIRED_ENTITY_DOCUMENT_GROUPS = {
  COMPANY_DETAILS_DOCUMENT: ['incorporation_cert', 'incorporation_articles', 'state_registry'],
  OWNERSHIP_STRUCTURE_DOCUMENT: ['shareholder_registry', 'information_statement', 'trust_agreement', 'partnership_agreement'],
  SOURCE_OF_FUNDS_DOCUMENT: ['source_of_funds'],
  PROOF_OF_ADDRESS_DOCUMENT: ['proof_of_address'],
} as const satisfies Record<string, readonly EntityDocumentType[]>;

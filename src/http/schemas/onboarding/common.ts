import { Type, type Static, type TSchema } from 'typebox';
import { VERIFICATION_STATUSES } from '../../../db/schema/verification-status.js';
import { ALLOWED_MEDIA_TYPES, MAX_DOCUMENT_BYTES } from '../../../domain/onboarding/documents/data-url.js';
import { COUNTRY_CODES, ENTITY_DOCUMENT_TYPES, USER_DOCUMENT_TYPES } from '../../../domain/onboarding/reference/index.js';

/** `T | null` as a JSON Schema type array (cleaner errors and OpenAPI than anyOf). */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, enum: values } = schema as { type?: string | string[]; enum?: unknown[] };
  return Type.Unsafe<Static<T> | null>({
    ...schema,
    type: Array.isArray(type) ? [...type, 'null'] : [type, 'null'],
    // An enum lists every allowed value, so null must be one of them too.
    ...(values ? { enum: [...values, null] } : {}),
  });
}

export const Text = (maxLength: number, options: Record<string, unknown> = {}) => Type.String({ maxLength, ...options });
export const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

export const CountryCodeSchema = Type.Enum([...COUNTRY_CODES], { type: 'string', description: 'ISO 3166-1 alpha-3, from the spec’s list' });
export const VerificationStatusSchema = Type.Enum([...VERIFICATION_STATUSES], { type: 'string' });

export const AddressSchema = Type.Object(
  {
    streetLine1: Text(200, { minLength: 1 }),
    streetLine2: Type.Optional(Nullable(Text(200))),
    city: Text(100, { minLength: 1 }),
    state: Type.Optional(Nullable(Text(10, { description: 'ISO 3166-2 subdivision code, e.g. US-CA; required for US addresses' }))),
    postalCode: Text(20, { minLength: 1, description: 'Checked against the country’s format where one is known' }),
    country: CountryCodeSchema,
  },
  { additionalProperties: false, title: 'Address' },
);

// Base64 of MAX_DOCUMENT_BYTES plus the data-URL prefix; the decoded size is checked exactly afterwards.
const DATA_URL_MAX = Math.ceil(MAX_DOCUMENT_BYTES / 3) * 4 + 64;
const documentFields = {
  issuingCountry: CountryCodeSchema,
  document: Type.String({
    maxLength: DATA_URL_MAX,
    description: `data:<media_type>;base64,<data> with media type ${ALLOWED_MEDIA_TYPES.join(', ')}; at most ${MAX_DOCUMENT_BYTES / 1048576} MiB decoded`,
  }),
  documentNumber: Type.Optional(Text(100)),
  description: Type.Optional(Text(1000)),
};

export const UserDocumentSubmission = Type.Object(
  { documentType: Type.Enum([...USER_DOCUMENT_TYPES], { type: 'string' }), ...documentFields },
  { additionalProperties: false, title: 'UserDocumentSubmission' },
);
export const EntityDocumentSubmission = Type.Object(
  { documentType: Type.Enum([...ENTITY_DOCUMENT_TYPES], { type: 'string' }), ...documentFields },
  { additionalProperties: false, title: 'EntityDocumentSubmission' },
);

export const DocumentViewSchema = Type.Object(
  {
    documentType: Type.Enum([...new Set([...USER_DOCUMENT_TYPES, ...ENTITY_DOCUMENT_TYPES])], { type: 'string' }),
    documentNumber: Nullable(Type.String()),
    description: Nullable(Type.String()),
    issuingCountry: Type.String(),
    documentId: Uuid(),
    warnings: Nullable(Type.Array(Type.String())),
    errors: Nullable(Type.Array(Type.String())),
  },
  { additionalProperties: false, title: 'Document' },
);

export const MissingList = (description: string) => Type.Optional(Type.Array(Type.String(), { description }));

import type { FieldError } from '../../../domain/errors.js';
import type { EntityFlowPerson } from '../../../domain/onboarding-links/flow/entity-state.js';
import type { FlowLink } from '../../../domain/onboarding-links/flow/flow-link.js';
import type { PersonInput } from '../../../domain/onboarding-links/flow/entity.js';
import type { CountryCode } from '../../../domain/onboarding/reference/country-codes.js';
import type { BeneficiaryDetails, SubmittedDocument, UserInfo } from '../../../domain/onboarding/types.js';
import { addressFields, COUNTRY_FIELD, COUNTRY_OPTIONS, PERSON_FIELDS } from './details-fields.js';
import { flatten, nest } from './entity-form.js';
import type { InputSpec } from './html.js';
import type { StepBody } from './step-pages.js';
import { dataUrlOf } from './upload-step.js';

// One associated person's form on the persons step (docs/onboarding-links.md#the-entity-flow): userInfo by its paths
// (the individual flow's inputs: firstName, residentialAddress.country, …), beneficiaryDetails.* and the person's
// identity document and proof of address, as create-associated-person and update-associated-person take them.

export const PERSON_COUNTRY = COUNTRY_FIELD.name;
const ACCEPT = 'image/jpeg,image/png,application/pdf';

/** The individual flow's person inputs but the phone and country of birth (optional, and the form's parts are few). */
const NAMES = PERSON_FIELDS.filter((f) => f.name !== 'phone' && f.name !== 'countryOfBirth').map((f) => (f.name === 'birthDate' ? { ...f, hint: 'They must be 18 or older.' } : f));

export const ROLE_FIELDS: InputSpec[] = [
  {
    name: 'beneficiaryDetails.beneficiaryType',
    label: 'Role',
    required: true,
    options: [
      ['representative', 'Representative: runs the company day to day'],
      ['ubo', 'Owner of more than 25 %'],
      ['ubo,representative', 'Both'],
    ],
  },
  { name: 'beneficiaryDetails.title', label: 'Title at the company', autocomplete: 'organization-title', maxLength: 100, hint: 'Required for a representative, e.g. CEO.' },
  { name: 'beneficiaryDetails.ownershipPercentage', label: 'Share owned (%)', autocomplete: 'off', maxLength: 6, hint: 'Required for an owner, e.g. 40.' },
];

export const IDENTITY_FILES: InputSpec[] = [
  { name: 'passport', label: 'Passport', type: 'file', accept: ACCEPT, capture: true, hint: 'The page with the photo. JPEG, PNG or PDF, up to 10 MB.' },
  { name: 'national_id_front', label: 'National id card: front', type: 'file', accept: ACCEPT, capture: true, hint: 'Instead of a passport: both sides of the card.' },
  { name: 'national_id_back', label: 'National id card: back', type: 'file', accept: ACCEPT, capture: true },
];
export const ISSUER: InputSpec = { name: 'issuingCountry', label: 'Country that issued the identity document', options: COUNTRY_OPTIONS };
export const PROOF: InputSpec = { name: 'proof_of_address', label: 'Proof of address', type: 'file', accept: ACCEPT, capture: true, hint: 'A utility bill or bank statement from the last 3 months.' };

/** The person's data inputs for a country (the SSN asked for a new US resident; kept as it is when editing). */
export function personInputs(country: string, editing: boolean): InputSpec[] {
  const address = addressFields(country).filter((f) => !(editing && f.name === 'socialSecurityNumber'));
  return [...NAMES, COUNTRY_FIELD, ...address, ...ROLE_FIELDS];
}

export const ACCEPTED_FIELDS = ['action', 'beneficiaryId', ...new Set([...personInputs('USA', false), ISSUER].map((i) => i.name))];
export const ACCEPTED_FILES = [...IDENTITY_FILES, PROOF].map((f) => f.name);

/** A stored person as the form's values (the SSN is never shown back). */
export function personValues(person: EntityFlowPerson): Record<string, string> {
  const { socialSecurityNumber: _ssn, ...info } = person.row.userInfo as UserInfo;
  return { ...flatten(info), ...flatten(person.row.beneficiaryDetails, 'beneficiaryDetails') };
}

/** The representative's own details, to start the first person with (the company has no representative yet). */
export function representativeValues(link: FlowLink): Record<string, string> {
  if (!link.user) return {};
  const { socialSecurityNumber: _ssn, phone: _phone, countryOfBirth: _born, ...info } = link.user.userInfo as UserInfo;
  return { ...flatten(info), 'beneficiaryDetails.beneficiaryType': 'representative' };
}

function numberOrText(value: string): unknown {
  return /^\d{1,3}(\.\d{1,2})?$/.test(value) ? Number(value) : value;
}

/** The submission as PersonInput: documents as the API's data URLs, an identity document whole or not at all. */
export function personSubmission(body: StepBody, editing: string | undefined): { input: PersonInput; names: string[]; errors: FieldError[] } {
  const inputs = personInputs(body.fields[PERSON_COUNTRY] ?? '', editing !== undefined);
  const nested = nest(inputs, body.fields, (name, value) => (name === 'beneficiaryDetails.ownershipPercentage' ? numberOrText(value) : value));
  const { beneficiaryDetails, ...userInfo } = nested as { beneficiaryDetails?: Record<string, unknown> } & Record<string, unknown>;
  const details = { ...beneficiaryDetails, beneficiaryType: String(beneficiaryDetails?.beneficiaryType ?? '').split(',').filter(Boolean) } as unknown as BeneficiaryDetails;
  const errors: FieldError[] = [];
  const documents: SubmittedDocument[] = [];
  const names: string[] = [];
  const { passport, national_id_front: front, national_id_back: back } = body.files;
  const issuer = body.fields.issuingCountry ?? '';
  if ((front || back) && !(front && back) && !passport) errors.push({ pointer: front ? '/national_id_back' : '/national_id_front', code: 'required', detail: 'x is required: a national id card needs both sides', in: 'body' });
  if ((passport || front || back) && issuer === '') errors.push({ pointer: '/issuingCountry', code: 'required', detail: 'issuingCountry is required with an identity document', in: 'body' });
  const country = (userInfo.residentialAddress as { country?: string } | undefined)?.country ?? issuer;
  for (const name of ACCEPTED_FILES) {
    const upload = body.files[name];
    if (!upload) continue;
    documents.push({ documentType: name as SubmittedDocument['documentType'], issuingCountry: (name === 'proof_of_address' ? country : issuer) as CountryCode, document: dataUrlOf(upload) });
    names.push(name);
  }
  return { input: { ...(editing ? { beneficiaryId: editing } : {}), userInfo: userInfo as Partial<UserInfo>, beneficiaryDetails: details, documents }, names, errors };
}

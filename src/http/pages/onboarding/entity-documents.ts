import { saveCompanyDocuments } from '../../../domain/onboarding-links/flow/entity.js';
import type { FlowLink } from '../../../domain/onboarding-links/flow/flow-link.js';
import type { CountryCode } from '../../../domain/onboarding/reference/country-codes.js';
import type { EntityInfo, SubmittedDocument } from '../../../domain/onboarding/types.js';
import { COUNTRY_OPTIONS } from './details-fields.js';
import { labelsOf } from './entity-form.js';
import { e, field, stepForm, type FormState, type InputSpec } from './html.js';
import { stepLayout } from './step-layout.js';
import type { StepBody, StepPage, StepView } from './step-pages.js';
import { dataUrlOf, uploadStepPage, type Uploads } from './upload-step.js';

// The company's documents (docs/onboarding-links.md#the-entity-flow): one file for each of the spec's four groups
// the company still owes, each input named by its requirement (document.companyDetails, …), with the document type
// where a group takes several. Saved by update-entity-account's function, checked like the API's data URLs.

const ACCEPT = 'image/jpeg,image/png,application/pdf';

interface Group {
  requirement: string;
  label: string;
  hint: string;
  /** The document types that meet it: [type, words]. */
  types: [string, string][];
}

const GROUPS: Group[] = [
  {
    requirement: 'document.companyDetails',
    label: 'Company registration',
    hint: 'The certificate of incorporation, the articles, or an extract of the register.',
    types: [
      ['incorporation_cert', 'Certificate of incorporation'],
      ['incorporation_articles', 'Articles of incorporation'],
      ['state_registry', 'Extract of the company register'],
    ],
  },
  {
    requirement: 'document.ownershipStructure',
    label: 'Who owns the company',
    hint: 'The shareholder register, or what shows the owners of a trust or partnership.',
    types: [
      ['shareholder_registry', 'Shareholder register'],
      ['information_statement', 'Information statement'],
      ['trust_agreement', 'Trust agreement'],
      ['partnership_agreement', 'Partnership agreement'],
    ],
  },
  { requirement: 'document.sourceOfFunds', label: 'Source of funds', hint: 'A bank statement or accounts showing where its money comes from.', types: [['source_of_funds', 'Source of funds']] },
  { requirement: 'document.proofOfAddress', label: 'Proof of the company’s address', hint: 'A utility bill or bank statement from the last 3 months, in the company’s name.', types: [['proof_of_address', 'Proof of address']] },
];

const ISSUER: InputSpec = { name: 'issuingCountry', label: 'Country that issued the documents', required: true, options: COUNTRY_OPTIONS };
const typeInput = (g: Group): InputSpec => ({ name: `${g.requirement}.documentType`, label: `${g.label}: which document`, required: true, options: g.types });
const fileInput = (g: Group): InputSpec => ({ name: g.requirement, label: g.label, type: 'file', accept: ACCEPT, capture: true, required: true, hint: `${g.hint} JPEG, PNG or PDF, up to 10 MB.` });

const owed = (link: FlowLink) => GROUPS.filter((g) => !link.entity || link.entity.requirements.currentlyDue.includes(g.requirement));
const inputsOf = (groups: Group[]) => [...groups.flatMap((g) => (g.types.length > 1 ? [typeInput(g), fileInput(g)] : [fileInput(g)])), ISSUER];

function render(view: StepView, form: FormState): string {
  const { link } = view;
  const country = (link.entity?.entity.entityInfo as EntityInfo | undefined)?.registeredAddress?.country ?? '';
  const state: FormState = { values: { issuingCountry: country, ...form.values }, errors: form.errors };
  const refused = (requirement: string) =>
    (link.entity?.requirements.errors ?? [])
      .filter((r) => r.requirement === requirement)
      .map((r) => `<p class="refused">The earlier document was refused: ${e(r.reason)}</p>`)
      .join('\n');
  const groups = owed(link)
    .map((g) => `<fieldset>\n<legend>${e(g.label)}</legend>\n${refused(g.requirement)}\n${g.types.length > 1 ? field(typeInput(g), state) : ''}\n${field(fileInput(g), state)}\n</fieldset>`)
    .join('\n');
  return stepLayout(view, 'company-documents', 'Your company’s documents', form, labelsOf(inputsOf(owed(link))), stepForm('company-documents', `${groups}\n${field(ISSUER, state)}`, 'Upload and continue', { multipart: true }));
}

/** The uploads as the API's entityDocuments, with the input each came from; a group left without its file is refused. */
function documentsOf(link: FlowLink, body: StepBody): Uploads {
  const { documents, names, errors }: Uploads = { documents: [], names: [], errors: [] };
  const issuingCountry = body.fields.issuingCountry ?? '';
  if (issuingCountry === '') errors.push({ pointer: '/issuingCountry', code: 'required', detail: 'issuingCountry is required', in: 'body' });
  for (const g of owed(link)) {
    const upload = body.files[g.requirement];
    const documentType = g.types.length > 1 ? (body.fields[`${g.requirement}.documentType`] ?? '') : g.types[0]![0];
    if (!g.types.some(([t]) => t === documentType)) errors.push({ pointer: `/${g.requirement}.documentType`, code: 'required', detail: 'x is required: choose which document it is', in: 'body' });
    if (!upload) {
      errors.push({ pointer: `/${g.requirement}`, code: 'required', detail: 'x is required: choose a file', in: 'body' });
      continue;
    }
    documents.push({ documentType: documentType as SubmittedDocument['documentType'], issuingCountry: issuingCountry as CountryCode, document: dataUrlOf(upload) });
    names.push(g.requirement);
  }
  return { documents, names, errors };
}

/** Each group's inputs by the pointer a refusal of it names. */
const GROUP_POINTERS = Object.fromEntries(GROUPS.flatMap((g) => [`/${g.requirement}`, `/${g.requirement}.documentType`].map((p) => [p, p.slice(1)])));

export const COMPANY_DOCUMENTS_PAGE: StepPage = uploadStepPage({
  accepts: () => ({ fields: ['issuingCountry', ...GROUPS.filter((g) => g.types.length > 1).map((g) => `${g.requirement}.documentType`)], files: GROUPS.map((g) => g.requirement) }),
  render,
  uploadsOf: documentsOf,
  save: saveCompanyDocuments,
  // /entityDocuments/<i>/... is the i-th upload.
  list: '/entityDocuments',
  inputs: (link) => inputsOf(owed(link)).map((i) => i.name),
  pointers: GROUP_POINTERS,
});

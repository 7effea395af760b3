import type { FlowLink } from '../../../domain/onboarding-links/flow/flow-link.js';
import { saveDocuments } from '../../../domain/onboarding-links/flow/individual.js';
import type { UserInfo } from '../../../domain/onboarding/types.js';
import type { CountryCode } from '../../../domain/onboarding/reference/country-codes.js';
import { COUNTRY_OPTIONS } from './details-fields.js';
import { e, field, stepForm, type FormState, type InputSpec } from './html.js';
import { stepLayout } from './step-layout.js';
import type { StepBody, StepPage, StepView } from './step-pages.js';
import { dataUrlOf, uploadStepPage, type Uploads } from './upload-step.js';

// The documents step: an identity document (a passport, or both sides of a national id card) and a proof of address,
// as the user's requirements ask (a resubmission of one shows only that one). Files are posted as multipart, each
// up to 10 MB of JPEG, PNG or PDF, and become the API's data URLs, checked by the same code (data-url.ts). On a
// phone, `capture` offers the camera. An entity link's representative goes through the same step for their own user.

const ACCEPT = 'image/jpeg,image/png,application/pdf';
const file = (name: string, label: string, hint: string): InputSpec => ({ name, label, type: 'file', accept: ACCEPT, capture: true, hint });
const IDENTITY: InputSpec[] = [
  file('passport', 'Passport', 'The page with your photo. JPEG, PNG or PDF, up to 10 MB.'),
  file('national_id_front', 'National id card: front', 'Instead of a passport: both sides of your card.'),
  file('national_id_back', 'National id card: back', 'The side without your photo.'),
];
const ISSUER: InputSpec = { name: 'issuingCountry', label: 'Country that issued the document', required: true, options: COUNTRY_OPTIONS };
const PROOF = file('proof_of_address', 'Proof of address', 'A utility bill or bank statement from the last 3 months, with your name and address.');

const due = (link: FlowLink, name: string) => !link.requirements || link.requirements.currentlyDue.includes(name);
const inputs = (link: FlowLink) => [...(due(link, 'document.identity') ? [...IDENTITY, ISSUER] : []), ...(due(link, 'document.proofOfAddress') ? [PROOF] : [])];

function render(view: StepView, form: FormState): string {
  const { link } = view;
  const info = link.user?.userInfo as UserInfo | undefined;
  const state: FormState = { values: { issuingCountry: info?.nationality ?? '', ...form.values }, errors: form.errors };
  const reasons = (requirement: string) =>
    (link.requirements?.errors ?? [])
      .filter((r) => r.requirement === requirement)
      .map((r) => `<p class="refused">Your earlier document was refused: ${e(r.reason)}</p>`)
      .join('\n');
  const identity = due(link, 'document.identity')
    ? `<fieldset>
<legend>Identity document</legend>
${reasons('document.identity')}
<p>A passport, or both sides of a national id card.</p>
${IDENTITY.map((f) => field(f, state)).join('\n')}
${field(ISSUER, state)}
</fieldset>`
    : '';
  const proof = due(link, 'document.proofOfAddress') ? `<fieldset>\n<legend>Proof of address</legend>\n${reasons('document.proofOfAddress')}\n${field(PROOF, state)}\n</fieldset>` : '';
  const labels = Object.fromEntries(inputs(link).map((f) => [f.name, f.label]));
  // An entity link's representative: their own documents, before the company's (the same step, on their user).
  const own = link.row.type === 'entity' ? '<p>As the company’s representative, you are verified too, before you act for it.</p>\n' : '';
  const title = link.row.type === 'entity' ? 'Your own documents' : 'Your documents';
  return stepLayout(view, 'documents', title, form, labels, stepForm('documents', own + [identity, proof].filter(Boolean).join('\n'), 'Upload and continue', { multipart: true }));
}

/** The uploads as the API's documents, each with the input name it came from; the files a requirement still lacks. */
function documentsOf(link: FlowLink, body: StepBody): Uploads {
  const { documents, names, errors }: Uploads = { documents: [], names: [], errors: [] };
  const add = (name: string, issuingCountry: string) => {
    const upload = body.files[name];
    if (!upload) return;
    documents.push({ documentType: name, issuingCountry: issuingCountry as CountryCode, document: dataUrlOf(upload) });
    names.push(name);
  };
  if (due(link, 'document.identity')) {
    const country = body.fields.issuingCountry ?? '';
    const { passport, national_id_front: front, national_id_back: back } = body.files;
    if (!passport && !front && !back) errors.push({ pointer: '/passport', code: 'required', detail: 'passport is required: choose a passport, or both sides of a national id card', in: 'body' });
    else if (!passport && !(front && back)) errors.push({ pointer: front ? '/national_id_back' : '/national_id_front', code: 'required', detail: 'x is required: a national id card needs both sides', in: 'body' });
    if (country === '') errors.push({ pointer: '/issuingCountry', code: 'required', detail: 'issuingCountry is required', in: 'body' });
    for (const name of ['passport', 'national_id_front', 'national_id_back']) add(name, country);
  }
  if (due(link, 'document.proofOfAddress')) {
    if (!body.files.proof_of_address) errors.push({ pointer: '/proof_of_address', code: 'required', detail: 'proof_of_address is required', in: 'body' });
    add('proof_of_address', (link.user?.userInfo as UserInfo | undefined)?.residentialAddress?.country ?? body.fields.issuingCountry ?? '');
  }
  return { documents, names, errors };
}

export const DOCUMENTS_PAGE: StepPage = uploadStepPage({
  accepts: () => ({ fields: ['issuingCountry'], files: ['passport', 'national_id_front', 'national_id_back', 'proof_of_address'] }),
  render,
  uploadsOf: documentsOf,
  save: saveDocuments,
  // /verificationDocuments/<i>/... is the i-th upload; /verificationDocuments/<i>/issuingCountry the country.
  list: '/verificationDocuments',
  inputs: (link) => inputs(link).map((f) => f.name),
});

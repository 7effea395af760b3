import type { FieldError } from '../../../domain/errors.js';
import { invalidFields } from '../../../domain/errors.js';
import { personDue, personsDue, type EntityFlowState } from '../../../domain/onboarding-links/flow/entity-state.js';
import { confirmPersons, removePerson, savePerson } from '../../../domain/onboarding-links/flow/entity.js';
import { withLiveLink } from '../../../domain/onboarding-links/flow/save.js';
import { REPRESENTATIVE_REQUIREMENT } from '../../../domain/requirements/requirements.js';
import { isCountryCode } from '../../../domain/onboarding/reference/country-codes.js';
import type { BeneficiaryDetails, UserInfo } from '../../../domain/onboarding/types.js';
import { chosenCountry, countryForm, countryLine } from './country-first.js';
import { COUNTRY_FIELD } from './details-fields.js';
import { fields, labelsOf } from './entity-form.js';
import { ACCEPTED_FIELDS, ACCEPTED_FILES, IDENTITY_FILES, ISSUER, PERSON_COUNTRY, personInputs, personSubmission, personValues, PROOF, representativeValues } from './entity-person-form.js';
import { e, field, problemsOf, type FormState } from './html.js';
import { stepLayout } from './step-layout.js';
import type { StepPage, StepView } from './step-pages.js';

// The persons step (docs/onboarding-links.md#the-entity-flow): the company's associated persons as a list (each with
// what it still owes, a link to change it and a button to remove it), a form to add one (the representative's own
// details to start with while the company has none) or change one (?edit=<beneficiaryId>), and "Continue", which
// is refused while anyone owes something and otherwise submits the company for verification. Every form posts here
// (multipart, for the documents), told apart by `action`.

const WORDS: Record<string, string> = {
  birthDate: 'date of birth',
  nationality: 'nationality',
  residentialAddress: 'home address',
  'document.identity': 'identity document',
  'document.proofOfAddress': 'proof of address',
};

const nameOf = (info: UserInfo) => `${info.firstName} ${info.lastName}`;

function roles(details: BeneficiaryDetails): string {
  const parts = [];
  if (details.beneficiaryType.includes('representative')) parts.push(`Representative${details.title ? ` (${details.title})` : ''}`);
  if (details.beneficiaryType.includes('ubo')) parts.push(`Owner${details.ownershipPercentage !== null && details.ownershipPercentage !== undefined ? ` of ${details.ownershipPercentage} %` : ''}`);
  return parts.join(', ');
}

function list(state: EntityFlowState): string {
  if (state.persons.length === 0) return '<p id="no-persons">No one added yet.</p>';
  const items = state.persons.map((p, i) => {
    const info = p.row.userInfo as UserInfo;
    const due = personDue(state, p.row.id).map((n) => WORDS[n] ?? n);
    const status = due.length > 0 ? `<span class="owes">Still needed: ${e(due.join(', '))}</span>` : '<span class="complete">Complete</span>';
    return `<li id="person-${i + 1}"><strong>${e(nameOf(info))}</strong>: ${e(roles(p.row.beneficiaryDetails as BeneficiaryDetails))}. ${status}
<a id="edit-${i + 1}" href="persons?edit=${e(p.row.id)}">Change ${e(nameOf(info))}</a>
<form method="post" action="persons" enctype="multipart/form-data"><input type="hidden" name="action" value="remove"><input type="hidden" name="beneficiaryId" value="${e(p.row.id)}"><button type="submit" id="remove-${i + 1}">Remove ${e(nameOf(info))}</button></form></li>`;
  });
  return `<ul id="persons">\n${items.join('\n')}\n</ul>`;
}

function personForm(view: StepView, form: FormState, state: EntityFlowState): string {
  const editing = state.persons.find((p) => p.row.id === (form.values.beneficiaryId ?? view.query.edit));
  const first = !state.persons.some((p) => (p.row.beneficiaryDetails as BeneficiaryDetails).beneficiaryType.includes('representative'));
  const stored = editing ? personValues(editing) : first ? representativeValues(view.link) : {};
  const country = chosenCountry(PERSON_COUNTRY, form, view.query, stored[PERSON_COUNTRY]);
  const heading = editing ? `Change ${nameOf(editing.row.userInfo as UserInfo)}` : state.persons.length === 0 ? 'Add a person' : 'Add another person';
  if (!country) {
    return `<h2 id="person-form">${e(heading)}</h2>
${countryForm('persons', { ...COUNTRY_FIELD, label: 'Country they live in' }, form, editing ? `<input type="hidden" name="edit" value="${e(editing.row.id)}">` : '')}`;
  }
  const values = { ...stored, ...form.values, [PERSON_COUNTRY]: country };
  const formState: FormState = { values, errors: form.errors };
  const inputs = personInputs(country, editing !== undefined).filter((i) => i.name !== PERSON_COUNTRY);
  const due = editing ? personDue(state, editing.row.id) : ['document.identity', 'document.proofOfAddress'];
  const documents = `<fieldset>
<legend>Documents</legend>
${due.includes('document.identity') ? `<p>A passport, or both sides of a national id card.</p>\n${fields([...IDENTITY_FILES, ISSUER], formState)}` : '<p>Their identity document is in.</p>'}
${due.includes('document.proofOfAddress') ? field(PROOF, formState) : '<p>Their proof of address is in.</p>'}
</fieldset>`;
  return `<h2 id="person-form">${e(heading)}</h2>
<form method="post" action="persons" enctype="multipart/form-data" novalidate>
<input type="hidden" name="action" value="${editing ? 'edit' : 'add'}">
${editing ? `<input type="hidden" name="beneficiaryId" value="${e(editing.row.id)}">` : ''}${countryLine(PERSON_COUNTRY, country, 'Lives in:', `persons?${editing ? `edit=${e(editing.row.id)}&amp;` : ''}${PERSON_COUNTRY}=`)}
${fields(inputs, formState)}
${documents}
<button type="submit" id="save-person">${editing ? 'Save changes' : 'Add this person'}</button>
</form>`;
}

function render(view: StepView, form: FormState): string {
  const state = view.link.entity;
  if (!state) return stepLayout(view, 'persons', 'The company’s people', form, {}, '<p>The company’s details come first.</p>');
  const country = form.values[PERSON_COUNTRY] ?? 'USA';
  const labels = { ...labelsOf([...personInputs(isCountryCode(country) ? country : 'USA', false), ...IDENTITY_FILES, ISSUER, PROOF]) };
  const body = `<p>Add the company’s representative (who runs it day to day) and everyone who owns more than 25 % of it.</p>
${list(state)}
${personForm(view, form.values.action === 'continue' || form.values.action === 'remove' ? { values: {}, errors: [] } : form, state)}
<h2>Everyone is listed</h2>
<form method="post" action="persons" enctype="multipart/form-data">
<input type="hidden" name="action" value="continue">
<button type="submit" id="continue">Continue</button>
</form>`;
  return stepLayout(view, 'persons', 'The company’s people', form, labels, body);
}

/** Why the list cannot be confirmed yet: a missing representative, and each person's missing items. */
function whatIsMissing(state: EntityFlowState): FieldError[] {
  const due = personsDue(state);
  const errors: FieldError[] = [];
  if (due.includes(REPRESENTATIVE_REQUIREMENT)) errors.push({ pointer: '/persons', code: 'required', detail: 'x is required: add the company’s representative', in: 'body' });
  for (const p of state.persons) {
    const owed = personDue(state, p.row.id).map((n) => WORDS[n] ?? n);
    if (owed.length > 0) errors.push({ pointer: '/persons', code: 'required', detail: `${nameOf(p.row.userInfo as UserInfo)} still needs: ${owed.join(', ')}`, in: 'body' });
  }
  return errors;
}

export const PERSONS_PAGE: StepPage = {
  body: 'multipart',
  accepts: () => ({ fields: ACCEPTED_FIELDS, files: ACCEPTED_FILES }),
  render,
  async save(ctx, token, body) {
    const { action, beneficiaryId } = body.fields;
    if (action === 'continue') return withLiveLink(ctx, token, (tx, link) => confirmPersons(ctx, tx, link, whatIsMissing));
    if (action === 'remove') return withLiveLink(ctx, token, (tx, link) => removePerson(ctx, tx, link, beneficiaryId ?? ''));
    if (action !== 'add' && action !== 'edit') throw invalidFields([{ pointer: '/action', code: 'invalid_value', detail: 'action must be add, edit, remove or continue', in: 'body' }]);
    const { input, errors } = personSubmission(body, action === 'edit' ? (beneficiaryId ?? '') : undefined);
    if (errors.length > 0) throw invalidFields(errors);
    return withLiveLink(ctx, token, (tx, link) => savePerson(ctx, tx, link, input));
  },
  problems(errors: readonly FieldError[], body) {
    const byPointer: Record<string, string> = {};
    personSubmission(body, undefined).names.forEach((name, i) => {
      byPointer[`/verificationDocuments/${i}/document`] = name;
      byPointer[`/verificationDocuments/${i}/issuingCountry`] = 'issuingCountry';
    });
    for (const name of ACCEPTED_FILES) byPointer[`/${name}`] = name;
    const country = body.fields[PERSON_COUNTRY] ?? '';
    const known = new Set([...personInputs(isCountryCode(country) ? country : 'USA', false), ...IDENTITY_FILES, ISSUER, PROOF].map((i) => i.name));
    return problemsOf(errors, ['/userInfo', ''], known, byPointer);
  },
};

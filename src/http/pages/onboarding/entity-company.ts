import { invalidFields } from '../../../domain/errors.js';
import { validateEntityInfo } from '../../../domain/onboarding/validation/index.js';
import { saveCompany } from '../../../domain/onboarding-links/flow/entity.js';
import { withLiveLink } from '../../../domain/onboarding-links/flow/save.js';
import type { EntityInfo } from '../../../domain/onboarding/types.js';
import { chosenCountry, countryForm, countryLine } from './country-first.js';
import { ACTIVITY_FIELDS, companyAddress, entityValue, FINANCIAL_FIELDS, identityFields, REGISTERED_COUNTRY, RISK_FIELDS } from './entity-company-fields.js';
import { blanks, checkbox, fields, flatten, labelsOf, nest } from './entity-form.js';
import { e, problemsOf, stepForm, type FormState, type InputSpec } from './html.js';
import { stepLayout } from './step-layout.js';
import type { StepPage, StepView } from './step-pages.js';

// The company step (docs/onboarding-links.md#the-entity-flow): the country of registration first (a GET form, so it
// works without script), then entityInfo as that country has it, saved by create-entity-account's function (a new
// company) or update-entity-account's (a company the representative already owns, its stored values shown).

const COUNTRY = REGISTERED_COUNTRY.name;
const SAME = 'physicalAddressSameAsRegistered';

/** Every input of the form for a country; the physical address required unless it is the registered one. */
function inputsFor(country: string, same: boolean): InputSpec[] {
  return [
    ...identityFields(country),
    REGISTERED_COUNTRY,
    ...companyAddress('registeredAddress', country, true),
    ...companyAddress('physicalAddress', country, !same),
    ...ACTIVITY_FIELDS,
    ...FINANCIAL_FIELDS,
    ...RISK_FIELDS,
  ];
}

function render(view: StepView, form: FormState): string {
  const stored = view.link.entity ? flatten(view.link.entity.entity.entityInfo) : {};
  const country = chosenCountry(COUNTRY, form, view.query, stored[COUNTRY]);
  const title = view.link.entity ? 'Complete your company’s details' : 'Your company';
  if (!country) return stepLayout(view, 'company', title, form, labelsOf([REGISTERED_COUNTRY]), countryForm('company', REGISTERED_COUNTRY, form));
  const submitted = Object.keys(form.values).length > 0;
  const sameByDefault = !view.link.entity || stored['physicalAddress.streetLine1'] === stored['registeredAddress.streetLine1'];
  const values = { ...stored, ...(submitted ? {} : sameByDefault ? { [SAME]: 'true' } : {}), ...form.values, [COUNTRY]: country };
  const state: FormState = { values, errors: form.errors };
  const body = `<fieldset>
<legend>The company</legend>
${fields(identityFields(country), state)}
</fieldset>
<fieldset>
<legend>Registered address</legend>
<input type="hidden" name="physicalAddress.country" value="${e(country)}">
${countryLine(COUNTRY, country, 'Country:', 'company')}
${fields(companyAddress('registeredAddress', country, true), state)}
</fieldset>
<fieldset>
<legend>Where it operates</legend>
${checkbox(SAME, 'At its registered address', state)}
<p class="hint">Otherwise, the address of its main place of business:</p>
${fields(companyAddress('physicalAddress', country, false), state)}
</fieldset>
<fieldset>
<legend>What it does</legend>
${fields(ACTIVITY_FIELDS, state)}
</fieldset>
<fieldset>
<legend>Its money</legend>
${fields(FINANCIAL_FIELDS, state)}
</fieldset>
<fieldset>
<legend>Risk</legend>
${fields(RISK_FIELDS, state)}
</fieldset>`;
  return stepLayout(view, 'company', title, form, labelsOf(inputsFor(country, false)), stepForm('company', body, 'Save and continue'));
}

/** The form as the API's entityInfo; a blank required input is refused before anything is saved. */
function submission(body: Record<string, string>): EntityInfo {
  const country = body[COUNTRY] ?? '';
  const same = body[SAME] === 'true';
  const inputs = inputsFor(country, same).filter((i) => !(same && i.name.startsWith('physicalAddress.')));
  const missing = blanks(inputs, body, (name) => `/entityInfo/${name.replace(/\./g, '/')}`);
  const info = nest(inputs, body, entityValue) as EntityInfo;
  // Every problem at once: the blanks, and the API's own checks of what was given.
  const wrong = validateEntityInfo(info, '/entityInfo').filter((w) => !missing.some((m) => m.pointer === w.pointer));
  if (missing.length + wrong.length > 0) throw invalidFields([...missing, ...wrong]);
  if (same) info.physicalAddress = info.registeredAddress;
  else if (info.physicalAddress) info.physicalAddress.country = info.registeredAddress!.country;
  return info;
}

const ACCEPTED = [...new Set([...inputsFor('USA', false), { name: 'physicalAddress.country' }, { name: SAME }].map((i) => i.name))];

export const COMPANY_PAGE: StepPage = {
  body: 'urlencoded',
  accepts: () => ({ fields: ACCEPTED }),
  render,
  async save(ctx, token, body) {
    const info = submission(body.fields);
    return withLiveLink(ctx, token, (tx, link) => saveCompany(ctx, tx, link, info));
  },
  problems: (errors, body) => problemsOf(errors, ['/entityInfo', ''], new Set(inputsFor(body.fields[COUNTRY] ?? 'USA', false).map((i) => i.name))),
};

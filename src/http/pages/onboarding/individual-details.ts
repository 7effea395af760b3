import type { FlowLink } from '../../../domain/onboarding-links/flow/flow-link.js';
import { saveDetails } from '../../../domain/onboarding-links/flow/individual.js';
import { withLiveLink } from '../../../domain/onboarding-links/flow/save.js';
import type { Address, AdditionalUserInfo, UserInfo } from '../../../domain/onboarding/types.js';
import { chosenCountry, countryForm, countryLine } from './country-first.js';
import { ADDITIONAL_FIELDS, addressFields, COUNTRY_FIELD, PERSON_FIELDS } from './details-fields.js';
import { labelsOf } from './entity-form.js';
import { field, problemsOf, stepForm, type FormState, type InputSpec } from './html.js';
import { stepLayout } from './step-layout.js';
import type { StepPage, StepView } from './step-pages.js';

// The details step: the country of residence first (a GET form, so it works without script), then the person's
// fields and the address as that country has it. A new customer gives everything (create-user); an existing user
// only what its requirements list (update-user).

const COUNTRY = COUNTRY_FIELD.name;

/** The person fields the link asks: all for a new customer; for an existing user, those its requirements list. */
function personFields(link: FlowLink): InputSpec[] {
  if (!link.user) return PERSON_FIELDS;
  const due = link.requirements?.currentlyDue ?? [];
  return PERSON_FIELDS.filter((f) => (f.name === 'birthDate' && due.includes('birthDate')) || (f.name === 'nationality' && due.includes('nationality')));
}
const asksAddress = (link: FlowLink) => !link.user || (link.requirements?.currentlyDue ?? []).includes('residentialAddress');

function storedCountry(link: FlowLink): string | undefined {
  return (link.user?.userInfo as UserInfo | undefined)?.residentialAddress?.country;
}

/** Every input the form has for a country. */
function inputsFor(link: FlowLink, country: string | undefined, additional: boolean): InputSpec[] {
  const address = asksAddress(link) && country ? [COUNTRY_FIELD, ...addressFields(country)] : [];
  return [...personFields(link), ...address, ...(additional ? ADDITIONAL_FIELDS : [])];
}

function render(view: StepView, form: FormState): string {
  const { link } = view;
  const country = chosenCountry(COUNTRY, form, view.query, storedCountry(link));
  if (asksAddress(link) && !country) return stepLayout(view, 'details', 'Where do you live?', form, labelsOf([COUNTRY_FIELD]), countryForm('details', COUNTRY_FIELD, form));
  const additional = Object.keys(form.values).some((k) => k.startsWith('additionalUserInfo.')) || form.errors.some((p) => p.code === 'additional_user_info_required');
  const inputs = inputsFor(link, country, additional);
  const values = { ...(link.user ? {} : { email: link.row.email ?? '' }), ...form.values };
  const state: FormState = { values, errors: form.errors };
  const person = personFields(link).map((f) => field(f, state)).join('\n');
  const address = country
    ? `<fieldset>
<legend>Home address</legend>
${countryLine(COUNTRY, country, 'Country:', 'details')}
${addressFields(country).map((f) => field(f, state)).join('\n')}
</fieldset>`
    : '';
  const more = additional
    ? `<fieldset>
<legend>About your finances</legend>
<p>Needed for customers over 60, or whose nationality or residence needs more checks.</p>
${ADDITIONAL_FIELDS.map((f) => field(f, state)).join('\n')}
</fieldset>`
    : '';
  return stepLayout(view, 'details', link.user ? 'Complete your details' : 'Your details', form, labelsOf(inputs), stepForm('details', [person, address, more].filter(Boolean).join('\n'), 'Save and continue'));
}

/** The submitted values as the API's userInfo (blank optional fields left out) and additionalUserInfo. */
function submission(link: FlowLink, fields: Record<string, string>): { userInfo: Partial<UserInfo>; additionalUserInfo?: AdditionalUserInfo } {
  const given = (name: string) => (fields[name] !== undefined && fields[name]!.trim() !== '' ? fields[name] : undefined);
  const userInfo: Record<string, unknown> = {};
  for (const f of personFields(link)) {
    const value = given(f.name);
    if (value !== undefined) userInfo[f.name] = value;
    else if (f.required) userInfo[f.name] = fields[f.name] ?? '';
  }
  const country = fields[COUNTRY];
  if (asksAddress(link)) {
    const address: Record<string, unknown> = {};
    for (const f of [COUNTRY_FIELD, ...addressFields(country ?? '')]) {
      const key = f.name.slice('residentialAddress.'.length);
      if (f.name === 'socialSecurityNumber') {
        if (given(f.name) !== undefined) userInfo.socialSecurityNumber = given(f.name);
        continue;
      }
      const value = given(f.name);
      if (value !== undefined) address[key] = value;
      else if (f.required) address[key] = fields[f.name] ?? '';
    }
    userInfo.residentialAddress = address as unknown as Address;
  }
  const extra = ADDITIONAL_FIELDS.filter((f) => given(f.name) !== undefined);
  if (extra.length === 0) return { userInfo: userInfo as Partial<UserInfo> };
  const additionalUserInfo = Object.fromEntries(ADDITIONAL_FIELDS.map((f) => [f.name.slice('additionalUserInfo.'.length), given(f.name) ?? ''])) as unknown as AdditionalUserInfo;
  return { userInfo: userInfo as Partial<UserInfo>, additionalUserInfo };
}

export const DETAILS_PAGE: StepPage = {
  body: 'urlencoded',
  accepts: (link) => ({ fields: [...personFields(link), COUNTRY_FIELD, ...addressFields('USA'), ...ADDITIONAL_FIELDS].map((f) => f.name) }),
  render,
  save: (ctx, token, body, link) => withLiveLink(ctx, token, (tx, current) => saveDetails(ctx, tx, current, submission(link, body.fields))),
  problems: (errors, body, link) => problemsOf(errors, ['/userInfo', ''], new Set(inputsFor(link, body.fields[COUNTRY], true).map((f) => f.name)), {}, body.fields),
};

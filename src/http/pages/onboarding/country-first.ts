import { isCountryCode, type CountryCode } from '../../../domain/onboarding/reference/country-codes.js';
import { countryName } from './details-fields.js';
import { e, field, type FormState, type InputSpec } from './html.js';

// A country-first form (the details, company and persons steps): an address's fields depend on its country, so the
// country is asked alone first, in a GET form to the step itself (no script needed); the form that follows keeps it
// in a hidden input and says it, with a link back to choose another.

/** The country the form is for: the one submitted, else the query's (the GET form's answer), else the stored one. */
export function chosenCountry(name: string, form: FormState, query: Record<string, string>, stored: string | undefined): CountryCode | undefined {
  const chosen = form.values[name] ?? query[name] ?? stored;
  return chosen && isCountryCode(chosen) ? chosen : undefined;
}

/** The first form: the country alone, sent back to `action` by GET (`hidden`: other inputs it keeps, as HTML). */
export function countryForm(action: string, input: InputSpec, form: FormState, hidden = ''): string {
  return `<form method="get" action="${e(action)}">
${hidden}${field(input, form)}
<button type="submit" id="choose-country">Continue</button>
</form>`;
}

/** The chosen country in the second form: kept (a hidden input named `name`), said after `words`, with the link to change it. */
export function countryLine(name: string, country: CountryCode, words: string, changeHref: string): string {
  return `<input type="hidden" name="${e(name)}" value="${e(country)}">
<p id="country">${e(words)} <strong>${e(countryName(country))}</strong> <a id="change-country" href="${changeHref}">Change country</a></p>`;
}

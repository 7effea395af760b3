import type { FieldError } from '../../../domain/errors.js';
import { escapeHtml, layout } from '../invitation-html.js';

// The hosted onboarding flow's HTML (docs/onboarding-links.md#the-hosted-flow): server-rendered forms that work
// without script, every value escaped, the invitation page's look (its stylesheet) plus a few rules of its own.

export const e = escapeHtml;

/** The flow's own files (the CSP allows only this origin's). */
export const ONBOARDING_ASSETS = '/onboarding/assets';

export function page(title: string, main: string, options: { script?: boolean } = {}): string {
  return layout(title, main, options.script ? `${ONBOARDING_ASSETS}/onboarding.js` : false, [`${ONBOARDING_ASSETS}/onboarding.css`]);
}

/** A form's state: the values to show again and the errors of the last submission, by input name. */
export interface FormState {
  values: Record<string, string>;
  errors: FieldProblem[];
}

/** One error shown on the page: the input it belongs to (its name), or none for the form as a whole. */
export interface FieldProblem {
  name: string | undefined;
  message: string;
  /** The domain error's code, when it came from one. */
  code?: string;
}

export const EMPTY_FORM: FormState = { values: {}, errors: [] };

/** An input's id from its name (`residentialAddress.postalCode` -> `residentialAddress-postalCode`). */
export const inputId = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '-');
export const errorId = (name: string) => `${inputId(name)}-error`;

/**
 * A domain error's pointer as the input name it belongs to: `/userInfo/residentialAddress/postalCode` ->
 * `residentialAddress.postalCode`. `prefixes` are the pointer parts the page's names leave out (e.g. `/userInfo`);
 * `known` the names the form has (anything else is shown in the summary only).
 */
export function problemsOf(
  errors: readonly FieldError[],
  prefixes: readonly string[],
  known: ReadonlySet<string>,
  names: Record<string, string> = {},
  values: Record<string, string> = {},
): FieldProblem[] {
  return errors.map((error) => {
    const prefix = prefixes.find((p) => error.pointer === p || error.pointer.startsWith(`${p}/`));
    const path = (prefix !== undefined ? error.pointer.slice(prefix.length) : error.pointer).replace(/^\//, '').split('/').join('.');
    const name = names[error.pointer] ?? (known.has(path) ? path : undefined);
    // A field left blank is missing, whatever the domain says about the empty text it received.
    const blank = name !== undefined && values[name] !== undefined && values[name]!.trim() === '';
    return { name, message: blank ? 'This is required.' : (FORM_MESSAGES[error.code] ?? sentence(error.detail)), code: error.code };
  });
}

/** What a person reads for the domain's codes whose detail speaks to a developer. */
const FORM_MESSAGES: Record<string, string> = {
  additional_user_info_required: 'A few questions about your finances are needed too (for customers over 60, or whose nationality or residence needs more checks): answer them below.',
  challenge_invalid: 'The passkey took too long to create. Try again.',
  authenticator_exists: 'This passkey is already registered. Create a new one.',
  age_out_of_range: 'You must be between 18 and 120 years old.',
  invalid_postal_code: 'Enter the postal code as it is written in this country.',
  invalid_phone: 'Enter a phone number with its country code, e.g. +44 7700 900123.',
  invalid_email: 'Enter an email address like name@example.com.',
  unsupported_media_type: 'Choose a JPEG, PNG or PDF file.',
  content_type_mismatch: 'This file is not the JPEG, PNG or PDF it says it is. Choose another.',
  too_large: 'Choose a file of at most 10 MB.',
  empty_document: 'This file is empty. Choose another.',
};

/** A domain detail as a sentence for a person ("userInfo/birthDate must be …" reads "Date of birth: must be …" in the summary). */
function sentence(detail: string): string {
  const text = detail.replace(/^[A-Za-z0-9/._-]+ (?=(must|is|cannot|does|repeats|content)\b)/, '');
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/([^.])$/, '$1.');
}

/** The error summary at the top of a form: each error links to its input; it takes focus when the page loads. */
export function errorSummary(form: FormState, labels: Record<string, string>): string {
  if (form.errors.length === 0) return '';
  const items = form.errors
    .map((p) => (p.name ? `<li><a href="#${e(inputId(p.name))}">${e(labels[p.name] ?? p.name)}: ${e(p.message)}</a></li>` : `<li>${e(p.message)}</li>`))
    .join('\n');
  return `<div id="error-summary" class="error-summary" role="alert" tabindex="-1" autofocus aria-labelledby="error-summary-title">
<h2 id="error-summary-title">There ${form.errors.length === 1 ? 'is a problem' : `are ${form.errors.length} problems`}</h2>
<ul>
${items}
</ul>
</div>`;
}

export interface InputSpec {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'date' | 'file' | 'password';
  autocomplete?: string;
  required?: boolean;
  hint?: string;
  /** A select's options: [value, text]. */
  options?: [string, string][];
  maxLength?: number;
  /** File inputs. */
  accept?: string;
  capture?: boolean;
}

/** A labelled input (or select) with its hint and error, aria-invalid and aria-describedby naming them. */
export function field(spec: InputSpec, form: FormState): string {
  const id = inputId(spec.name);
  const problems = form.errors.filter((p) => p.name === spec.name);
  const described = [spec.hint ? `${id}-hint` : '', problems.length > 0 ? errorId(spec.name) : ''].filter(Boolean).join(' ');
  const attrs = [
    `id="${e(id)}"`,
    `name="${e(spec.name)}"`,
    spec.autocomplete ? `autocomplete="${e(spec.autocomplete)}"` : '',
    spec.required ? 'required' : '',
    spec.maxLength ? `maxlength="${spec.maxLength}"` : '',
    problems.length > 0 ? 'aria-invalid="true"' : '',
    described ? `aria-describedby="${e(described)}"` : '',
  ].filter(Boolean);
  const value = form.values[spec.name] ?? '';
  let control: string;
  if (spec.options) {
    const options = [['', 'Choose…'] as [string, string], ...spec.options]
      .map(([v, text]) => `<option value="${e(v)}"${v === value ? ' selected' : ''}>${e(text)}</option>`)
      .join('');
    control = `<select ${attrs.join(' ')}>${options}</select>`;
  } else if (spec.type === 'file') {
    control = `<input type="file" ${attrs.join(' ')}${spec.accept ? ` accept="${e(spec.accept)}"` : ''}${spec.capture ? ' capture="environment"' : ''}>`;
  } else {
    control = `<input type="${spec.type ?? 'text'}" ${attrs.join(' ')} value="${e(value)}">`;
  }
  const hint = spec.hint ? `\n<p class="hint" id="${e(id)}-hint">${e(spec.hint)}</p>` : '';
  const error = problems.length > 0 ? `\n<p class="field-error" id="${e(errorId(spec.name))}">${problems.map((p) => e(p.message)).join(' ')}</p>` : '';
  const optional = spec.required ? '' : ' <span class="optional">(optional)</span>';
  return `<div class="field${problems.length > 0 ? ' invalid' : ''}"><label for="${e(id)}">${e(spec.label)}${optional}</label>${hint}${error}
${control}</div>`;
}

/** A step's form: POSTs to the step's own URL (relative, so the token is written nowhere else in the page). */
export function stepForm(step: string, body: string, submit: string, options: { multipart?: boolean } = {}): string {
  return `<form method="post" action="${e(step)}"${options.multipart ? ' enctype="multipart/form-data"' : ''} novalidate>
${body}
<button type="submit" id="continue">${e(submit)}</button>
</form>`;
}

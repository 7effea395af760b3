import type { FieldError } from '../../../domain/errors.js';
import { e, field, type FormState, type InputSpec } from './html.js';

// Helpers of the entity flow's forms (docs/onboarding-links.md#the-entity-flow): a flat form whose input names are
// the API's field paths, made into the API's nested object, and the few inputs the shared helpers do not draw.

const given = (value: string | undefined) => value !== undefined && value.trim() !== '';

/**
 * The submitted values of `inputs` as a nested object by their dotted names; blank optional inputs are left out,
 * blank required ones sent as '' (so the domain names them). `convert` turns a value into the API's type.
 */
export function nest(inputs: readonly InputSpec[], fields: Record<string, string>, convert: (name: string, value: string) => unknown = (_n, v) => v): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const input of inputs) {
    const value = fields[input.name];
    if (!given(value) && !input.required) continue;
    const parts = input.name.split('.');
    let at = out;
    for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
    at[parts.at(-1)!] = given(value) ? convert(input.name, value!.trim()) : '';
  }
  return out;
}

/** A stored object's values as the form's flat values by dotted name (for editing what was saved). */
export function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return prefix ? { [prefix]: Array.isArray(value) ? value.join(',') : String(value) } : {};
  return Object.assign({}, ...Object.entries(value).map(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k)));
}

/** `required` errors for required inputs left blank, before anything is saved (the domain allows partial data). */
export function blanks(inputs: readonly InputSpec[], fields: Record<string, string>, pointerOf: (name: string) => string): FieldError[] {
  return inputs
    .filter((i) => i.required && !given(fields[i.name]))
    .map((i) => ({ pointer: pointerOf(i.name), code: 'required', detail: `${i.name} is required`, in: 'body' }));
}

/** A yes/no question, as a select whose values are the API's booleans. */
export const yesNo = (name: string, label: string, hint?: string): InputSpec => ({
  name,
  label,
  required: true,
  options: [
    ['false', 'No'],
    ['true', 'Yes'],
  ],
  ...(hint ? { hint } : {}),
});

/** A checkbox (value `true`), with its label after it. */
export function checkbox(name: string, label: string, form: FormState): string {
  const id = name.replace(/[^A-Za-z0-9_-]/g, '-');
  return `<div class="check"><input type="checkbox" id="${e(id)}" name="${e(name)}" value="true"${form.values[name] === 'true' ? ' checked' : ''}>
<label for="${e(id)}">${e(label)}</label></div>`;
}

export const fields = (inputs: readonly InputSpec[], form: FormState) => inputs.map((i) => field(i, form)).join('\n');
export const labelsOf = (inputs: readonly InputSpec[]) => Object.fromEntries(inputs.map((f) => [f.name, f.label]));

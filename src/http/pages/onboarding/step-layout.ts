import { owedSteps } from '../../../domain/onboarding-links/flow/steps.js';
import { e, errorSummary, page, type FormState } from './html.js';
import type { StepView } from './step-pages.js';

/**
 * A step's page: the integrator's name, the step's heading (focused when there is no error summary), how many steps
 * remain, the error summary (focused) and the form.
 */
export function stepLayout(view: StepView, step: string, title: string, form: FormState, labels: Record<string, string>, body: string, options: { script?: boolean } = {}): string {
  const owed = owedSteps(view.link).map((s) => s.name);
  const left = owed.includes(step) ? owed.length : 0;
  const progress = left > 1 ? `<p class="progress">${left - 1} more step${left - 1 === 1 ? '' : 's'} after this one.</p>` : left === 1 ? '<p class="progress">This is the last step.</p>' : '';
  const summary = errorSummary(form, labels);
  return page(
    `${form.errors.length > 0 ? 'Error: ' : ''}${title} – ${view.link.integratorName}`,
    `<p class="integrator">${e(view.link.integratorName)}</p>
<h1 id="title" tabindex="-1"${summary ? '' : ' autofocus'}>${e(title)}</h1>
${progress}
${summary}
${body}`,
    options,
  );
}

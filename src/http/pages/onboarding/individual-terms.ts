import { invalidFields } from '../../../domain/errors.js';
import { acceptTerms } from '../../../domain/onboarding-links/flow/individual.js';
import { withLiveLink } from '../../../domain/onboarding-links/flow/save.js';
import { SANDBOX_TERMS_PATH } from '../invitation-routes.js';
import { e, problemsOf, stepForm } from './html.js';
import { stepLayout } from './step-layout.js';
import type { StepPage } from './step-pages.js';

const LABELS = { acceptTerms: 'Service terms' };

/** The terms step: the service terms linked (SERVICE_TERMS_URL, or the sandbox's stand-in), accepted by a checkbox. */
export const TERMS_PAGE: StepPage = {
  body: 'urlencoded',
  accepts: () => ({ fields: ['acceptTerms'] }),
  render(view, form) {
    const url = view.ctx.termsUrl ?? SANDBOX_TERMS_PATH;
    const invalid = form.errors.some((p) => p.name === 'acceptTerms');
    const error = invalid ? `<p class="field-error" id="acceptTerms-error">${e(form.errors.find((p) => p.name === 'acceptTerms')!.message)}</p>\n` : '';
    return stepLayout(
      view,
      'terms',
      'The service terms',
      form,
      LABELS,
      stepForm(
        'terms',
        `<p>To open an account with ${e(view.link.integratorName)}, read and accept the
<a id="terms-link" href="${e(url)}" target="_blank" rel="noopener noreferrer">service terms</a> (version ${e(view.ctx.termsVersion)}, opens in a new tab).</p>
${error}<div class="check"><input type="checkbox" id="acceptTerms" name="acceptTerms" value="true" required${invalid ? ' aria-invalid="true" aria-describedby="acceptTerms-error"' : ''}>
<label for="acceptTerms">I have read and accept the service terms</label></div>`,
        'Accept and continue',
      ),
    );
  },
  async save(ctx, token, body) {
    if (body.fields.acceptTerms !== 'true') {
      throw invalidFields([{ pointer: '/acceptTerms', code: 'required', detail: 'acceptTerms is required: tick the box to accept the service terms', in: 'body' }]);
    }
    return withLiveLink(ctx, token, (tx, link) => acceptTerms(ctx, tx, link));
  },
  problems: (errors) => problemsOf(errors, [''], new Set(['acceptTerms'])),
};

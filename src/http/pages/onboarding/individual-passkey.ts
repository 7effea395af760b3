import { invalidFields } from '../../../domain/errors.js';
import { linkChallenge, registerPasskey } from '../../../domain/onboarding-links/flow/passkey.js';
import { withLiveLink } from '../../../domain/onboarding-links/flow/save.js';
import type { Authenticator, UserInfo } from '../../../domain/onboarding/types.js';
import { e, problemsOf, stepForm } from './html.js';
import { stepLayout } from './step-layout.js';
import type { StepPage } from './step-pages.js';

// The passkey step: the page's script (onboarding.js, the only script of the flow) asks the browser for a passkey
// over the challenge in the form's data attributes, puts the registration in the hidden `authenticator` input and
// posts the form. Without script the page says a passkey needs it.

const LABELS = { authenticator: 'Passkey' };

export const PASSKEY_PAGE: StepPage = {
  body: 'urlencoded',
  accepts: () => ({ fields: ['authenticator'] }),
  render(view, form) {
    const { link } = view;
    const info = link.user?.userInfo as UserInfo | undefined;
    const userHandle = link.user ? Buffer.from(link.user.id.replace(/-/g, ''), 'hex').toString('base64url') : '';
    const data = view.rpId
      ? ` id="passkey-form" data-challenge="${e(linkChallenge(view.ctx, link))}" data-rp-id="${e(view.rpId)}" data-rp-name="${e(link.integratorName)}" data-user-id="${e(userHandle)}" data-user-name="${e(info?.email ?? '')}" data-display-name="${e([info?.firstName, info?.lastName].filter(Boolean).join(' '))}"`
      : ' id="passkey-form"';
    const body = `<p>Your device creates a passkey (fingerprint, face or screen lock). ${e(link.integratorName)} asks for it to approve your transactions.</p>
<noscript><p>Creating a passkey needs JavaScript: your browser makes it.</p></noscript>
<input type="hidden" name="authenticator" id="authenticator" value="">
<p id="passkey-status" role="status" aria-live="polite"></p>`;
    const html = stepForm('passkey', body, 'Create a passkey').replace('<form ', `<form${data} `);
    return stepLayout(view, 'passkey', 'Create your passkey', form, LABELS, view.rpId ? html : `${body.split('\n')[0]}\n<p>Passkeys cannot be created on this address. Tell ${e(link.integratorName)}.</p>`, { script: true });
  },
  async save(ctx, token, body) {
    let authenticator: Authenticator;
    try {
      authenticator = JSON.parse(body.fields.authenticator ?? '') as Authenticator;
    } catch {
      throw invalidFields([{ pointer: '/authenticator', code: 'required', detail: 'authenticator is required: create the passkey with the button', in: 'body' }]);
    }
    return withLiveLink(ctx, token, (tx, link) => registerPasskey(ctx, tx, link, authenticator));
  },
  // The input is hidden: its errors are the summary's.
  problems: (errors) => problemsOf(errors, [''], new Set()),
};

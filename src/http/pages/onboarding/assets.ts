// The hosted onboarding flow's own script and style, served from /onboarding/assets/ (the CSP allows no inline code).
// The pages work without script except the passkey step, where the browser itself makes the passkey.

export const ONBOARDING_SCRIPT = `// The passkey step (docs/onboarding-links.md#the-hosted-flow): creates the passkey over the form's challenge, puts the
// registration in the hidden input and posts the form like any other step.
const b64u = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const fromB64u = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
const form = document.getElementById('passkey-form');
const status = document.getElementById('passkey-status');

function say(text, isError) {
  status.textContent = text;
  status.classList.toggle('error', Boolean(isError));
}

form?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = document.getElementById('continue');
  const data = form.dataset;
  if (!data.challenge) return;
  button.disabled = true;
  try {
    if (!window.PublicKeyCredential) throw new Error('This browser cannot create passkeys.');
    say('Creating your passkey…');
    const credential = await navigator.credentials.create({ publicKey: {
      rp: { id: data.rpId, name: data.rpName },
      user: { id: fromB64u(data.userId), name: data.userName, displayName: data.displayName || data.userName },
      challenge: fromB64u(data.challenge),
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }, { type: 'public-key', alg: -257 }],
      timeout: 120000,
      attestation: 'none',
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    } });
    const transports = credential.response.getTransports ? credential.response.getTransports() : [];
    document.getElementById('authenticator').value = JSON.stringify({
      authenticatorName: 'Passkey',
      challenge: data.challenge,
      attestation: {
        credentialId: b64u(credential.rawId),
        clientDataJson: b64u(credential.response.clientDataJSON),
        attestationObject: b64u(credential.response.attestationObject),
        transports,
      },
    });
    say('Saving your passkey…');
    form.submit();
  } catch (error) {
    say(error && error.name === 'NotAllowedError' ? 'The passkey was not created. Try again when you are ready.' : String(error.message || error), true);
    button.disabled = false;
    button.focus();
  }
});
`;

export const ONBOARDING_STYLE = `.integrator { margin: 0; color: GrayText; }
.progress { color: GrayText; }
fieldset { border: 1px solid GrayText; border-radius: 4px; margin: 1.5rem 0; padding: 0 1rem; min-width: 0; }
legend { font-weight: 600; padding: 0 0.25rem; }
.field select { font: inherit; padding: 0.5rem; width: 100%; box-sizing: border-box; }
.field input[type="file"] { padding: 0.25rem 0; }
.hint { margin: 0.1rem 0 0.25rem; color: GrayText; font-size: 0.95em; }
.optional { font-weight: 400; color: GrayText; }
.field.invalid input, .field.invalid select { border: 2px solid #b00020; }
.field-error, .refused { color: #b00020; font-weight: 600; margin: 0.1rem 0 0.25rem; }
.error-summary { border: 3px solid #b00020; padding: 0 1rem 0.5rem; margin: 1rem 0; }
.error-summary h2 { font-size: 1.1rem; }
.error-summary a { color: inherit; }
a.button { display: inline-block; padding: 0.6rem 1.2rem; border: 1px solid currentColor; border-radius: 4px; text-decoration: none; font-weight: 600; }
#passkey-status.error { color: #b00020; font-weight: 600; }
`;

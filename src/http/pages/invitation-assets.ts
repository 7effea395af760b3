// The hosted invitation page's script and style, served from /invitations/assets/ (the CSP allows no inline code).
// Plain browser JavaScript in a string: no build step, and it ships with the server whether it runs from src/ or dist/.

export const INVITATION_SCRIPT = `// Registers a passkey for the invitation and accepts it (docs/invitations.md#the-hosted-page).
const b64u = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const fromB64u = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
const token = location.pathname.split('/')[2];
const form = document.getElementById('accept-form');
const status = document.getElementById('status');

function say(text, isError) {
  status.textContent = text;
  status.classList.toggle('error', Boolean(isError));
}

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
    credentials: 'omit',
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.detail || data.title || 'The server answered ' + response.status);
  return data;
}

form?.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!form.reportValidity()) return;
  const button = document.getElementById('accept');
  button.disabled = true;
  const firstName = form.elements.firstName.value.trim();
  const lastName = form.elements.lastName.value.trim();
  try {
    if (!window.PublicKeyCredential) throw new Error('This browser cannot create passkeys.');
    say('Creating your passkey…');
    const options = await call('GET', '/invitations/' + token + '/registration-options');
    const credential = await navigator.credentials.create({ publicKey: {
      rp: options.rp,
      user: { id: fromB64u(options.user.id), name: options.user.name, displayName: firstName + ' ' + lastName },
      challenge: fromB64u(options.challenge),
      pubKeyCredParams: options.pubKeyCredParams,
      timeout: options.timeout,
      attestation: options.attestation,
      authenticatorSelection: options.authenticatorSelection,
    } });
    say('Accepting the invitation…');
    const transports = credential.response.getTransports ? credential.response.getTransports() : [];
    const result = await call('POST', '/invitations/' + token + '/accept', {
      firstName,
      lastName,
      acceptTerms: true,
      authenticator: {
        authenticatorName: 'Passkey',
        challenge: options.challenge,
        attestation: {
          credentialId: b64u(credential.rawId),
          clientDataJson: b64u(credential.response.clientDataJSON),
          attestationObject: b64u(credential.response.attestationObject),
          transports,
        },
      },
    });
    form.hidden = true;
    say('Done: you are now a member, as ' + result.roleName + '.');
    document.getElementById('next').hidden = false;
    document.getElementById('title').focus();
  } catch (error) {
    say(error && error.name === 'NotAllowedError' ? 'The passkey was not created. Try again when you are ready.' : String(error.message || error), true);
    button.disabled = false;
  }
});
`;

export const INVITATION_STYLE = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0; padding: 2rem 1rem; }
main { max-width: 36rem; margin: 0 auto; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
.field { margin: 1rem 0; }
.field label { display: block; font-weight: 600; }
.field input { font: inherit; padding: 0.5rem; width: 100%; box-sizing: border-box; }
.check { margin: 1rem 0; }
button { font: inherit; padding: 0.6rem 1.2rem; cursor: pointer; }
button:disabled { cursor: progress; }
:focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
#status.error { color: #b00020; font-weight: 600; }
`;

/** A plain icon, so browsers do not ask for /favicon.ico (a 404 in every console). */
export const INVITATION_ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#345"/><path d="M3 5h10v6H3z" fill="none" stroke="#fff"/><path d="M3 5l5 4 5-4" fill="none" stroke="#fff"/></svg>';

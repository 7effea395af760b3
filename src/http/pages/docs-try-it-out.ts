// The integrators' API reference (/docs, @fastify/swagger-ui) and its "Try it out": in the sandbox the page signs
// each /v1 request itself, with a private key the developer pastes; in production Try it out is off and the page says
// so (docs/authentication.md, "Trying requests in /docs"). The scripts are plain browser JavaScript in strings, served
// as swagger-ui theme files from /docs/static/theme/: no build step, and they ship whether the server runs from src/
// or dist/. The page's CSP allows no inline script.
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { AppEnv } from '../../config/types.js';
import { DOCS_CSP, DOCS_STYLE, docsPlugins, INTEGRATOR_DOCS, shellHook } from './docs-page.js';

export { DOCS_CSP };

/** sessionStorage entry holding the pasted private key (this tab only; never localStorage). */
export const DOCS_KEY_STORAGE = 'integratorDocs.privateKey';

/** Sandbox: the signing panel and the request interceptor's implementation (window.integratorDocs). */
const SIGNING_SCRIPT = `// "Try it out" signs every /v1 request in this page (sandbox only; docs/authentication.md, "Trying requests in /docs").
// The private key is kept in this tab's sessionStorage (never localStorage) and never leaves the page: only the
// X-Pubkey, X-Timestamp and X-Signature headers it computes are sent. WebCrypto signs (ECDSA P-256, SHA-256); its
// raw r||s signature is re-encoded as strict DER. WebCrypto imports a P-256 private key as JWK with its public point
// (x, y), which is computed here from the private key (BigInt arithmetic on the curve) and checked by a test signature.
(function () {
  'use strict';
  var STORAGE_KEY = ${JSON.stringify(DOCS_KEY_STORAGE)};
  var P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
  var N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
  var B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;
  var G = { x: 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n, y: 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n };
  var ECDSA = { name: 'ECDSA', namedCurve: 'P-256' };
  var SHA256 = { name: 'ECDSA', hash: 'SHA-256' };

  function mod(a) { var r = a % P; return r < 0n ? r + P : r; }
  function invert(a) {
    var lm = 1n, hm = 0n, low = mod(a), high = P;
    while (low > 1n) {
      var q = high / low, nm = hm - lm * q, nw = high - low * q;
      hm = lm; high = low; lm = nm; low = nw;
    }
    return mod(lm);
  }
  // Affine point addition on y^2 = x^3 - 3x + b; null is the point at infinity.
  function add(p, q) {
    if (!p) return q;
    if (!q) return p;
    var l;
    if (p.x === q.x) {
      if (mod(p.y + q.y) === 0n) return null;
      l = mod(3n * (p.x * p.x - 1n) * invert(2n * p.y));
    } else {
      l = mod((q.y - p.y) * invert(q.x - p.x));
    }
    var x = mod(l * l - p.x - q.x);
    return { x: x, y: mod(l * (p.x - x) - p.y) };
  }
  function multiply(k) {
    var result = null, point = G;
    while (k > 0n) {
      if (k & 1n) result = add(result, point);
      point = add(point, point);
      k >>= 1n;
    }
    return result;
  }
  function bytes32(n) { return Uint8Array.from(n.toString(16).padStart(64, '0').match(/../g), function (h) { return parseInt(h, 16); }); }
  function hex(bytes) { return Array.from(bytes, function (b) { return b.toString(16).padStart(2, '0'); }).join(''); }
  function b64u(bytes) { return btoa(String.fromCharCode.apply(null, Array.from(bytes))).replace(/[+]/g, '-').replace(/[/]/g, '_').replace(/=+$/, ''); }

  // WebCrypto's ECDSA signature is r||s (32 bytes each); the API wants DER: SEQUENCE { INTEGER r, INTEGER s }, each
  // integer minimal (no leading zero bytes) and positive (a zero byte before a high bit). Either S form is accepted.
  function derInteger(bytes) {
    var i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    var v = Array.from(bytes.subarray(i));
    if (v[0] & 0x80) v.unshift(0);
    return [0x02, v.length].concat(v);
  }
  function der(raw) {
    if (raw.length !== 64) throw new Error('unexpected WebCrypto signature length ' + raw.length);
    var body = derInteger(raw.subarray(0, 32)).concat(derInteger(raw.subarray(32)));
    return Uint8Array.from([0x30, body.length].concat(body));
  }

  // A signing key from 0x + 64 hex digits: its compressed public key (X-Pubkey) and sign(message) -> 0x + DER hex.
  async function keyFrom(privateKeyHex) {
    var text = String(privateKeyHex).trim();
    if (!/^0x/i.test(text)) text = '0x' + text;
    if (!/^0x[0-9a-fA-F]{64}$/.test(text)) throw new Error('A private key is 0x followed by 64 hex digits (32 bytes).');
    var d = BigInt(text);
    if (d === 0n || d >= N) throw new Error('This is not a P-256 private key (out of range).');
    var Q = multiply(d);
    if (mod(Q.y * Q.y - (Q.x * Q.x * Q.x - 3n * Q.x + B)) !== 0n) throw new Error('Internal error: the derived point is not on P-256.');
    var x = bytes32(Q.x), y = bytes32(Q.y);
    var jwk = { kty: 'EC', crv: 'P-256', d: b64u(bytes32(d)), x: b64u(x), y: b64u(y), ext: false };
    var privateKey = await crypto.subtle.importKey('jwk', jwk, ECDSA, false, ['sign']);
    var publicKey = await crypto.subtle.importKey('raw', Uint8Array.from([4].concat(Array.from(x), Array.from(y))), ECDSA, false, ['verify']);
    // The X-Pubkey sent must be the key that signs: prove it with one signature before using the key.
    var probe = new TextEncoder().encode('integrator-docs key check');
    var probeSignature = await crypto.subtle.sign(SHA256, privateKey, probe);
    if (!(await crypto.subtle.verify(SHA256, publicKey, probeSignature, probe))) throw new Error('The derived public key does not match this private key.');
    return {
      publicKey: '0x' + ((Q.y & 1n) ? '03' : '02') + hex(x),
      privateKeyHex: text.toLowerCase(),
      sign: async function (message) {
        var raw = new Uint8Array(await crypto.subtle.sign(SHA256, privateKey, new TextEncoder().encode(message)));
        return '0x' + hex(der(raw));
      },
    };
  }

  var signer = Promise.resolve(null);
  var SIGNED_HEADERS = ['x-pubkey', 'x-timestamp', 'x-signature'];

  // swagger-ui's requestInterceptor (it may return a Promise): signs same-origin requests to /v1 over the method,
  // the path and query exactly as fetch will send them, and the body string swagger-ui sends (empty for none).
  async function intercept(request) {
    var url = new URL(request.url, location.href);
    if (url.origin !== location.origin || !(url.pathname === '/v1' || url.pathname.indexOf('/v1/') === 0)) return request;
    var key = await signer;
    if (!key) return request;
    var body = request.body;
    if (body === undefined || body === null) body = '';
    if (typeof body !== 'string') throw new Error('This page signs JSON bodies only; use the CLI for this request.');
    var method = String(request.method || 'GET').toUpperCase();
    var target = url.pathname + url.search;
    var timestamp = String(Math.floor(Date.now() / 1000));
    var signature = await key.sign(timestamp + method + target + body);
    var headers = {};
    Object.keys(request.headers || {}).forEach(function (name) {
      if (SIGNED_HEADERS.indexOf(name.toLowerCase()) === -1) headers[name] = request.headers[name];
    });
    headers['X-Pubkey'] = key.publicKey;
    headers['X-Timestamp'] = timestamp;
    headers['X-Signature'] = signature;
    request.url = url.href;
    request.method = method;
    request.headers = headers;
    return request;
  }

  // The panel, above swagger-ui's own root (which React owns).
  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text) node.textContent = text;
    return node;
  }
  var panel = element('section', { id: 'docs-signing', class: 'docs-panel', 'aria-labelledby': 'docs-signing-title' });
  panel.append(
    element('h2', { id: 'docs-signing-title' }, 'Sign "Try it out" requests (sandbox)'),
    element('p', {}, 'Paste the private key of a sandbox credential (0x + 64 hex digits, as printed by "npm run -s admin -- integrators create"). ' +
      'This page signs each /v1 request you execute with it (WebCrypto, ECDSA P-256) and adds X-Pubkey, X-Timestamp and X-Signature. ' +
      'The key stays in this tab’s session storage: it is never sent to the server and is gone when the tab closes or when you forget it. ' +
      'Prefer a read_only or throwaway credential; never paste a production key.'),
  );
  var row = element('div', { class: 'docs-key-row' });
  var input = element('input', { id: 'docs-private-key', type: 'password', autocomplete: 'off', spellcheck: 'false', placeholder: '0x… private key', 'aria-label': 'Private key' });
  var use = element('button', { id: 'docs-use-key', type: 'button' }, 'Use key');
  var forget = element('button', { id: 'docs-forget-key', type: 'button', hidden: '' }, 'Forget key');
  row.append(input, use, forget);
  var status = element('p', { id: 'docs-signing-status', role: 'status' });
  panel.append(row, status);
  var root = document.getElementById('swagger-ui');
  root.parentNode.insertBefore(panel, root);

  function show(key, error) {
    status.classList.toggle('docs-error', Boolean(error));
    if (error) status.textContent = error;
    else if (key) status.textContent = 'Signing /v1 requests as ' + key.publicKey;
    else status.textContent = 'No key: Try it out sends /v1 requests unsigned, and the server answers 401.';
    forget.hidden = !key;
  }

  function load(privateKeyHex) {
    var loading = keyFrom(privateKeyHex);
    signer = loading.catch(function () { return null; });
    return loading;
  }

  use.addEventListener('click', function () {
    load(input.value).then(function (key) {
      sessionStorage.setItem(STORAGE_KEY, key.privateKeyHex);
      input.value = '';
      show(key);
    }, function (err) {
      show(null, err.message);
    });
  });
  input.addEventListener('keydown', function (event) { if (event.key === 'Enter') use.click(); });
  forget.addEventListener('click', function () {
    sessionStorage.removeItem(STORAGE_KEY);
    signer = Promise.resolve(null);
    input.value = '';
    show(null);
  });

  var stored = sessionStorage.getItem(STORAGE_KEY);
  if (stored) {
    load(stored).then(show, function (err) {
      sessionStorage.removeItem(STORAGE_KEY);
      show(null, err.message);
    });
  } else {
    show(null);
  }

  // intercept is swagger-ui's requestInterceptor; keyFrom and der are exposed for the browser test.
  window.integratorDocs = { intercept: intercept, keyFrom: keyFrom, der: der };
})();
`;

/** Production: Try it out is off (supportedSubmitMethods: []); the page says why and what to use instead. */
const READ_ONLY_SCRIPT = `// Production: this page never takes a private key, so "Try it out" is off (docs/authentication.md, "Trying requests in /docs").
(function () {
  'use strict';
  // A key another tab left on this origin in the sandbox has no use here.
  sessionStorage.removeItem(${JSON.stringify(DOCS_KEY_STORAGE)});
  var panel = document.createElement('section');
  panel.id = 'docs-read-only';
  panel.className = 'docs-panel docs-notice';
  panel.setAttribute('role', 'note');
  var title = document.createElement('h2');
  title.textContent = 'Try it out is off on this server';
  var text = document.createElement('p');
  text.textContent = 'Every /v1 request must be signed with your private key, and outside the sandbox this page never takes one, so it cannot send requests. ' +
    'Send them with the CLI, for example "npm run -s cli -- request GET /v1/integrator/whoami" (docs/sdk.md#cli), or with the SDK.';
  panel.append(title, text);
  var root = document.getElementById('swagger-ui');
  root.parentNode.insertBefore(panel, root);
})();
`;

/**
 * The integrator docs' swagger-ui options for this environment: our page shell (docs-page.ts: swagger-ui's layout
 * without its top bar, no Authorize dialog) and the theme script. The request interceptor is built with `new Function`
 * so that its source, which @fastify/swagger-ui copies into the page, is exactly this text whatever compiles the
 * server; it hands each request to the theme script.
 */
export function integratorDocsUi(appEnv: AppEnv): Pick<FastifySwaggerUiOptions, 'uiConfig' | 'theme' | 'staticCSP' | 'uiHooks'> {
  const production = appEnv === 'production';
  const js = production ? { filename: 'read-only.js', content: READ_ONLY_SCRIPT } : { filename: 'try-it-out.js', content: SIGNING_SCRIPT };
  const plugins = production
    ? docsPlugins('docs-read-only', 'Requests are signed one by one with your private key: Try it out is off here (see above)')
    : docsPlugins('docs-signing', 'No Authorize dialog: each request is signed with the key in the signing panel above');
  const common = { docExpansion: 'list', deepLinking: true, layout: 'BaseLayout', plugins: plugins as never } as const;
  const theme = { title: 'Integrator API', css: [{ filename: 'docs.css', content: DOCS_STYLE }], js: [js] };
  const uiHooks = { onRequest: shellHook(appEnv, { ...INTEGRATOR_DOCS, themeJs: js.filename }) };
  if (production) return { staticCSP: DOCS_CSP, uiHooks, uiConfig: { ...common, supportedSubmitMethods: [] }, theme };
  const requestInterceptor = new Function('request', 'return window.integratorDocs ? window.integratorDocs.intercept(request) : request;') as NonNullable<
    NonNullable<FastifySwaggerUiOptions['uiConfig']>['requestInterceptor']
  >;
  return { staticCSP: DOCS_CSP, uiHooks, uiConfig: { ...common, requestInterceptor }, theme };
}

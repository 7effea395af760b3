/**
 * Baseline for `npm run bench` (bench/run.ts): a bare node:http server doing only the API's signature check on every
 * request (same header parsing, same crypto modules, same key cache), then a tiny JSON answer.
 * No routing, no database, no framework: the API's req/s divided by this one's is the framework + DB overhead.
 * Run as its own process (PORT, HOST from the environment) so it competes for CPU like the API does.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { parseDerSignature } from '../src/crypto/der-signature.js';
import { PublicKeyCache, isCompressedPublicKeyHex, verifyDer } from '../src/crypto/p256.js';
import { buildSignedMessage } from '../src/crypto/request-signature.js';
// The same cheap format checks and window as the API's (src/http/auth/authenticate.ts), so the baseline does no less work.
import { SIGNATURE_HEX, TIMESTAMP, TIMESTAMP_TOLERANCE_SECONDS } from '../src/http/auth/authenticate.js';
import { header } from './lib/bare-headers.js';

const keys = new PublicKeyCache();

function verified(req: IncomingMessage): boolean {
  const pubkey = header(req, 'x-pubkey');
  const timestamp = header(req, 'x-timestamp');
  const signature = header(req, 'x-signature');
  if (!pubkey || !timestamp || !signature) return false;
  if (!isCompressedPublicKeyHex(pubkey) || !SIGNATURE_HEX.test(signature) || !TIMESTAMP.test(timestamp)) return false;
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) return false;
  const sig = Buffer.from(signature.slice(2), 'hex');
  if (!parseDerSignature(sig)) return false;
  try {
    // GETs only: the signed message has an empty body.
    return verifyDer(keys.get(pubkey), buildSignedMessage(timestamp, req.method ?? 'GET', req.url ?? '/'), sig);
  } catch {
    return false; // key not on the curve
  }
}

const server = createServer((req, res) => {
  // Drain any body so keep-alive connections stay usable.
  req.resume();
  const ok = verified(req);
  const body = ok ? '{"ok":true}' : '{"ok":false}';
  res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
// The parent stops us with SIGTERM; exit at once (nothing to flush).
process.on('SIGTERM', () => process.exit(0));

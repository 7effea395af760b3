/**
 * The bare equivalents for `npm run bench` (bench/run.ts): a bare node:http server doing only the essential work of
 * three API scenarios, on the API's own database with the API's sealing key, so that the API's CPU time per request
 * divided by this one's is what the framework and everything else around the essential work costs.
 *
 * - GET /v1/integrator/whoami: the signature check as the API does it (format checks, the credential from the same
 *   cache, verifyDerOffThread on libuv's pool, then the async sha256 of the message), then the same answer as the
 *   API's, JSON.stringify of the credential's fields and its capabilities (the API's list, which the bench reads
 *   from the API once and hands over in BARE_WHOAMI_CAPABILITIES: the bare server has no operations to list).
 * - GET /v1/query/get-associated-person-details: the same check, then the domain function the API's handler calls
 *   (the same SQL through the same driver, the same view), JSON.stringify of it.
 * - POST /v1/submit/create-individual-account: the same check over the body bytes, then the same writes
 *   (bench/lib/bare-create.ts).
 *
 * Nothing else: no framework, no routing beyond these three paths, no JSON Schema, no rate limiter, no logging.
 * Run as its own process (PORT from the environment; the API's DATA_DIR, DATABASE_URL and ENCRYPTION_KEY(S)).
 */
// Like the API's entry point, first: the same heap growth policy, so garbage collection is not where they differ.
import '../src/heap-growth.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { loadConfig } from '../src/config.js';
import { parseDerSignature } from '../src/crypto/der-signature.js';
import { loadOrCreateSandboxKey } from '../src/crypto/encryption-key.js';
import { PublicKeyCache, isCompressedPublicKeyHex, normalizePublicKeyHex, verifyDerOffThread } from '../src/crypto/p256.js';
import { buildSignedMessage, signedPathCandidates } from '../src/crypto/request-signature.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import { CredentialCache } from '../src/db/credential-cache.js';
import { openDatabase } from '../src/db/database.js';
import { getAssociatedPerson } from '../src/domain/onboarding/persons/associated-persons.js';
// The same cheap format checks and window as the API's (src/http/auth/authenticate.ts), so the baseline does no less work.
import { SIGNATURE_HEX, TIMESTAMP, TIMESTAMP_TOLERANCE_SECONDS } from '../src/http/auth/authenticate.js';
import { createIndividualAccount, type Signer } from './lib/bare-create.js';
import { header } from './lib/bare-headers.js';

const config = loadConfig();
// As the API's composition root: ENCRYPTION_KEY(S) when set, else the sandbox key in DATA_DIR (the API's, or its copy).
const secrets = new SecretBox(config.encryptionKeys ?? loadOrCreateSandboxKey(config.dataDir));
const database = await openDatabase(
  config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl, poolMax: config.databasePoolMax, queryTimeoutMs: config.databaseQueryTimeoutMs, connectTimeoutMs: config.databaseConnectTimeoutMs }
    : { kind: 'pglite', dataDir: config.dataDir },
);
const credentials = new CredentialCache(database);
await credentials.start();
const keys = new PublicKeyCache();
const capabilities = JSON.parse(process.env.BARE_WHOAMI_CAPABILITIES ?? '[]') as string[];

/** authenticate.ts's checkHeaders + verify, without its error answers: the signer, or undefined (401). */
async function verified(req: IncomingMessage, body: Buffer): Promise<(Signer & { label: string; scope: string }) | undefined> {
  const pubkey = header(req, 'x-pubkey');
  const timestamp = header(req, 'x-timestamp');
  const signature = header(req, 'x-signature');
  if (!pubkey || !timestamp || !signature || !isCompressedPublicKeyHex(pubkey)) return undefined;
  let key;
  try {
    key = keys.get(pubkey);
  } catch {
    return undefined; // not on the curve
  }
  if (!SIGNATURE_HEX.test(signature) || !TIMESTAMP.test(timestamp)) return undefined;
  const sig = Buffer.from(signature.slice(2), 'hex');
  if (!parseDerSignature(sig)) return undefined;
  const seconds = Number(timestamp);
  if (Math.abs(Math.floor(Date.now() / 1000) - seconds) > TIMESTAMP_TOLERANCE_SECONDS) return undefined;
  const credential = await credentials.get(normalizePublicKeyHex(pubkey));
  if (!credential?.active) return undefined;
  for (const path of signedPathCandidates(req.url ?? '/')) {
    const message = buildSignedMessage(timestamp, req.method ?? 'GET', path, body);
    if (await verifyDerOffThread(key, message, sig)) {
      return { integratorId: credential.integratorId, credentialId: credential.id, publicKey: credential.publicKey, label: credential.label, scope: credential.scope, message, timestamp: seconds };
    }
  }
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, json: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  const signer = await verified(req, body);
  if (!signer) return send(res, 401, '{"ok":false}');
  const url = new URL(req.url ?? '/', 'http://bare');
  if (req.method === 'GET' && url.pathname === '/v1/integrator/whoami') {
    const { integratorId, credentialId, publicKey, label, scope } = signer;
    return send(res, 200, JSON.stringify({ integratorId, credentialId, publicKey, label, scope, active: true, capabilities }));
  }
  if (req.method === 'GET' && url.pathname === '/v1/query/get-associated-person-details') {
    const view = await getAssociatedPerson(database.db, signer.integratorId, url.searchParams.get('beneficiaryId') ?? '');
    return send(res, 200, JSON.stringify(view));
  }
  if (req.method === 'POST' && url.pathname === '/v1/submit/create-individual-account') {
    return send(res, 201, JSON.stringify(await createIndividualAccount(database, secrets, signer, body)));
  }
  send(res, 404, '{"ok":false}');
}

const server = createServer((req, res) => {
  answer(req, res).catch((err: Error) => {
    // Anything thrown is a broken equivalent, not a measurement: the bench fails on the non-2xx and shows this.
    if (!res.headersSent) send(res, 500, JSON.stringify({ error: err.message }));
  });
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
// The parent stops us with SIGTERM: close the database (PGlite writes its folder on close), then exit.
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void credentials
    .stop()
    .then(() => database.close())
    .finally(() => process.exit(0));
});

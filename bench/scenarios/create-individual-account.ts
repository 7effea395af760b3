/**
 * create-individual-account with one 1 MiB document (a PDF proof of address), custodial (no walletAddress).
 * POSTs are replay-guarded (the same signed message twice within 60 s is a 409), so every request has its own
 * email and its own signature: autocannon's setupRequest builds each one just before it is sent. The 1.4 MB
 * data URL is made once; a body is three buffers concatenated, then signed (one SHA-256 over it).
 */
import { randomBytes } from 'node:crypto';
import { berliner, dataUrl, pdf, signedAt } from '../../test/harness/fixtures.js';
import type { Backend } from '../lib/backend.js';
import type { LoadSpec, Measured } from '../lib/load.js';
import { postJson, signedGetHeaders, signedPostHeaders, type Key } from '../lib/signing.js';

export const CREATE_INDIVIDUAL = 'create-individual-account';
export const CREATE_CONNECTIONS = 8;
export const DOCUMENT_BYTES = 1024 * 1024;
const PATH = `/v1/submit/${CREATE_INDIVIDUAL}`;

/** A one-page PDF padded to exactly `size` bytes with comment lines after %%EOF (readers ignore them). */
export function paddedPdf(size: number): Buffer {
  const out = Buffer.alloc(size, '\n');
  let pos = pdf('bench: a 1 MiB proof of address').copy(out, 0);
  // Random text, so the document does not compress (it is sealed with AES-GCM before storage anyway).
  const filler = randomBytes(size).toString('base64');
  for (let at = 0; pos + 2 <= size; at += 78) {
    const line = `%${filler.slice(at, at + Math.min(78, size - pos - 2))}\n`;
    pos += out.write(line, pos, 'latin1');
  }
  return out;
}

/** Unique, signed, ready-to-send bodies: only the email differs. */
export function bodyFactory(runTag: string): (n: number) => Buffer {
  const [EMAIL, DOCUMENT] = ['@@email@@', '@@document@@'];
  const template = JSON.stringify({
    userInfo: berliner({ email: EMAIL }),
    serviceTermsSignedAt: signedAt(),
    verificationDocuments: [{ documentType: 'proof_of_address', issuingCountry: 'DEU', document: DOCUMENT }],
  });
  // Custodial path: the server generates (and seals) a wallet key only when no walletAddress is sent.
  if (template.includes('walletAddress')) throw new Error('the create-individual-account body must not carry walletAddress');
  const [beforeEmail, afterEmail] = template.split(EMAIL) as [string, string];
  const [beforeDocument, afterDocument] = afterEmail.split(DOCUMENT) as [string, string];
  const document = Buffer.from(dataUrl('application/pdf', paddedPdf(DOCUMENT_BYTES)), 'latin1');
  const tail = Buffer.from(afterDocument);
  return (n) => Buffer.concat([Buffer.from(`${beforeEmail}bench-${runTag}-${n}@example.de${beforeDocument}`), document, tail]);
}

const CUSTODIAL_ANSWER = /"walletAddress":"0x[0-9a-fA-F]{40}"/;

export interface CreateLoad {
  spec: LoadSpec;
  /** The same load against another server (the bare equivalent); its answers are checked alike. */
  specAt: (baseUrl: string, label: string) => LoadSpec;
  /** Adds what only this scenario measures to a run's result. */
  finish: (m: Measured) => Measured & CreateExtras;
}

export interface CreateExtras {
  bodyBytes: number;
  /** Request bodies, MB (10^6 bytes) per second. */
  requestBodyMBps: number;
  /** Milliseconds the load generator spends building and signing one request. */
  clientBuildMs: number;
  /** 201 answers without an organizationId or walletAddress (must be 0: every account custodial). */
  nonCustodial201: number;
}

export async function createIndividualLoad(backend: Backend): Promise<CreateLoad> {
  const { baseUrl, key } = backend;
  const makeBody = bodyFactory(randomBytes(4).toString('hex'));
  let n = 0;

  // One through fetch first: it must be 201 and custodial, as the server itself reports the account.
  const first = await postJson<{ accountId: string; walletAddress?: string; organizationId?: string; verificationDocuments: unknown[] }>(
    baseUrl,
    key,
    PATH,
    JSON.parse(makeBody(n++).toString('utf8')),
  );
  const accountPath = `/v1/query/get-account-details?accountId=${first.accountId}`;
  const account = (await (await fetch(`${baseUrl}${accountPath}`, { headers: signedGetHeaders(key, accountPath) })).json()) as { custody?: string };
  if (account.custody !== 'custodial' || !first.organizationId || first.verificationDocuments.length !== 1) {
    throw new Error(`${CREATE_INDIVIDUAL} before the load: not a custodial account with one document: ${JSON.stringify({ ...first, account })}`);
  }

  const bodyBytes = makeBody(0).length;
  const clientBuildMs = timeBuild(key, makeBody);
  let nonCustodial201 = 0;
  let failure: string | undefined;
  const specAt = (url: string, label: string): LoadSpec => ({
    label,
    connections: CREATE_CONNECTIONS,
    options: () => ({
      url: `${url}${PATH}`,
      requests: [
        {
          setupRequest: (request) => {
            const body = makeBody(n++);
            return { ...request, method: 'POST', path: PATH, headers: { ...request.headers, ...signedPostHeaders(key, PATH, body) }, body };
          },
          onResponse: (status, body) => {
            if (status === 201 && !(CUSTODIAL_ANSWER.test(body) && body.includes('"organizationId"'))) nonCustodial201++;
            if (status !== 201) failure ??= `${status} ${body.slice(0, 500)}`;
          },
        },
      ],
    }),
    sample: async () => failure ?? 'no non-2xx answer recorded (connection errors or timeouts only)',
  });
  return {
    spec: specAt(baseUrl, CREATE_INDIVIDUAL),
    specAt,
    finish: (m) => ({ ...m, bodyBytes, requestBodyMBps: (m.reqPerSec * bodyBytes) / 1e6, clientBuildMs, nonCustodial201 }),
  };
}

/** Client-side cost of one request (build + sign), so it can be compared with the server's. */
function timeBuild(key: Key, makeBody: (n: number) => Buffer): number {
  const rounds = 20;
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) signedPostHeaders(key, PATH, makeBody(-1 - i));
  return Number(process.hrtime.bigint() - start) / 1e6 / rounds;
}

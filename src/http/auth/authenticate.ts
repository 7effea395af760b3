import type { KeyObject } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import { parseDerSignature } from '../../crypto/der-signature.js';
import { PublicKeyCache, isCompressedPublicKeyHex, normalizePublicKeyHex, verifyDerOffThread } from '../../crypto/p256.js';
import { buildSignedMessage, signedPathCandidates } from '../../crypto/request-signature.js';
import type { CredentialCache } from '../../db/credential-cache.js';
import type { CredentialRow } from '../../db/repositories/credentials.js';
import type { Scope } from '../../domain/credentials/credentials.js';
import { ApiError } from '../../domain/errors.js';

/** Accepted clock difference between X-Timestamp and the server, in both directions (spec: 1 minute). */
export const TIMESTAMP_TOLERANCE_SECONDS = 60;

export interface Authenticated {
  integratorId: string;
  credentialId: string;
  publicKey: string;
  label: string;
  scope: Scope;
  /**
   * The signed message as verified: the replay guard keys a mutation on its SHA-256 (a read never hashes it), then
   * lets it go (signed-scope.ts), so that an upload's copy of its body is not held while its handler runs.
   */
  message: Buffer | undefined;
  /** X-Timestamp as a number, for the replay guard's expiry. */
  timestamp: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: Authenticated;
  }
}

/** The cheap format checks before any crypto (exported for the bench's bare servers, which must do no less work). */
export const SIGNATURE_HEX = /^0x(?:[0-9a-fA-F]{2}){8,72}$/;
export const TIMESTAMP = /^\d{1,12}$/;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** What the headers alone establish, before a byte of the body is read. */
export interface PendingAuth {
  key: KeyObject;
  signature: Buffer;
  timestamp: string;
  seconds: number;
  credential: CredentialRow;
}

export function createAuthenticator(deps: { credentials: CredentialCache; clock: Clock; keys?: PublicKeyCache }) {
  const keys = deps.keys ?? new PublicKeyCache();

  /**
   * Step 1 (onRequest, nothing of the body read yet): the three headers are present and well-formed, the
   * timestamp is inside the window, and the key belongs to an active credential. An upload from anyone else
   * is refused before it costs memory.
   */
  async function checkHeaders(request: FastifyRequest): Promise<PendingAuth> {
    const pubkey = header(request, 'x-pubkey');
    const timestamp = header(request, 'x-timestamp');
    const signature = header(request, 'x-signature');
    // The list is only built for a refusal: every signed request passes here.
    if (!pubkey || !timestamp || !signature) {
      const missing = [
        ['X-Pubkey', pubkey],
        ['X-Timestamp', timestamp],
        ['X-Signature', signature],
      ]
        .filter(([, v]) => !v)
        .map(([name]) => name);
      throw new ApiError('missing_auth_headers', `Missing header(s): ${missing.join(', ')}`, {
        errors: missing.map((name) => ({ pointer: `/${name}`, code: 'required', detail: `${name} is required`, in: 'header' as const })),
      });
    }

    let key;
    try {
      if (!isCompressedPublicKeyHex(pubkey)) throw new Error('format');
      key = keys.get(pubkey);
    } catch {
      throw new ApiError('malformed_public_key', 'X-Pubkey must be a compressed SEC1 P-256 point on the curve, hex with a 0x prefix');
    }

    if (!SIGNATURE_HEX.test(signature)) {
      throw new ApiError('malformed_signature', 'X-Signature must be a DER-encoded ECDSA signature, hex with a 0x prefix');
    }
    const sigBytes = Buffer.from(signature.slice(2), 'hex');
    if (!parseDerSignature(sigBytes)) {
      throw new ApiError('malformed_signature', 'X-Signature is not a valid DER SEQUENCE of two INTEGERs within the P-256 order');
    }

    if (!TIMESTAMP.test(timestamp)) {
      throw new ApiError('malformed_timestamp', 'X-Timestamp must be the Unix time in whole seconds, as decimal digits');
    }
    const seconds = Number(timestamp);
    const nowSeconds = Math.floor(deps.clock().getTime() / 1000);
    if (Math.abs(nowSeconds - seconds) > TIMESTAMP_TOLERANCE_SECONDS) {
      throw new ApiError(
        'timestamp_out_of_window',
        `X-Timestamp must be within ${TIMESTAMP_TOLERANCE_SECONDS} s of the server time (server time ${nowSeconds})`,
      );
    }

    const credential = await deps.credentials.get(normalizePublicKeyHex(pubkey));
    if (!credential) throw new ApiError('unknown_credential', 'No credential has this public key');
    if (!credential.active) throw new ApiError('credential_inactive', 'This credential is deactivated');
    return { key, signature: sigBytes, timestamp, seconds, credential };
  }

  /** Step 2 (preValidation, body read but not parsed): the signature over the raw bytes as received. */
  async function verify(request: FastifyRequest, pending: PendingAuth): Promise<Authenticated> {
    const url = request.raw.url ?? request.url;
    // On libuv's thread pool, small messages too: the P-256 check (about 85 µs) was a third of the event loop's work
    // per signed read, and the pool runs it on another core meanwhile (whoami 3,728 to 5,280 req/s on 2 cores,
    // docs/benchmarks.md). Large bodies would stall every other request if hashed inline anyway.
    let verified: Buffer | undefined;
    for (const path of signedPathCandidates(url)) {
      const message = buildSignedMessage(pending.timestamp, request.method, path, request.rawBody);
      if (await verifyDerOffThread(pending.key, message, pending.signature)) {
        verified = message;
        break;
      }
    }
    if (!verified) {
      throw new ApiError(
        'invalid_signature',
        'The signature does not match SHA-256 of {timestamp}{METHOD}{path_and_query}{body} for this key (see docs/authentication.md)',
      );
    }
    const { credential } = pending;
    return {
      integratorId: credential.integratorId,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      label: credential.label,
      scope: credential.scope,
      message: verified,
      timestamp: pending.seconds,
    };
  }

  return { checkHeaders, verify };
}

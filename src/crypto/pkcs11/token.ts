import pkcs11js from 'pkcs11js';
import { decodeEcPoint, encodeEcPoint, SECP256K1_EC_PARAMS } from './ec.js';
import { CustodyUnavailableError, reasonOf, TokenConfigError, TokenObjectMissingError, type PinSource } from './errors.js';
import { acquireModule, releaseModule } from './library.js';
import { SessionPool } from './session-pool.js';

type Handle = pkcs11js.Handle;

export interface TokenOptions {
  /** PKCS11_MODULE: the module's path (SoftHSM2: /usr/lib/softhsm/libsofthsm2.so). */
  module: string;
  /** PKCS11_TOKEN_LABEL */
  tokenLabel: string;
  /** The user PIN, read when a session logs in (a function, so the value is in no object that could be logged). */
  pin: () => string;
  /** Where the PIN came from, named when the token refuses it (default PKCS11_PIN). */
  pinSource?: PinSource;
  /**
   * Sessions signing at once. C_SignAsync runs on libuv's pool (4 threads unless UV_THREADPOOL_SIZE says more), so
   * more sessions than threads only queue there.
   */
  sessions?: number;
}

/**
 * A PKCS#11 token holding secp256k1 keys, one private/public pair per label. Private keys are generated or imported
 * as sensitive, non-extractable token objects and only ever used through C_Sign (CKM_ECDSA over a 32-byte digest).
 * Operations that fail on the token throw CustodyUnavailableError; `open` throws TokenConfigError.
 */
export class CustodyToken {
  /** Private-key handles by label: handles stay valid for the module's lifetime, and a lookup costs three calls. */
  private readonly handles = new Map<string, Handle>();

  private constructor(
    private readonly lib: pkcs11js.PKCS11,
    private readonly options: TokenOptions,
    private readonly pool: SessionPool,
  ) {}

  /** Loads the module, finds the token by label and logs in once, so every configuration mistake shows at start. */
  static async open(options: TokenOptions): Promise<CustodyToken> {
    const lib = acquireModule(options.module);
    try {
      const slot = findSlot(lib, options.tokenLabel);
      const pool = new SessionPool(lib, slot, options.pin, options.sessions ?? 4);
      try {
        await pool.warmUp();
      } catch (err) {
        const reason = err instanceof CustodyUnavailableError ? err.reason : reasonOf(err);
        if (/PIN|LOGIN/.test(reason)) throw pinRefused(options, reason);
        throw new TokenConfigError('PKCS11_TOKEN_LABEL', `the token "${options.tokenLabel}" could not be opened (${reason})`);
      }
      return new CustodyToken(lib, options, pool);
    } catch (err) {
      releaseModule(options.module);
      throw err;
    }
  }

  /** A new key pair generated inside the token under `label`; answers its public key (04 ‖ x ‖ y). */
  async generateKey(label: string): Promise<Buffer> {
    return this.pool.use('generate a key', async (session) => {
      const pair = await this.call('generate a key', () =>
        this.lib.C_GenerateKeyPairAsync(session, { mechanism: pkcs11js.CKM_EC_KEY_PAIR_GEN }, publicTemplate(label), privateTemplate(label)),
      );
      this.handles.set(label, pair.privateKey);
      return decodeEcPoint(this.call('read a public key', () => this.lib.C_GetAttributeValue(session, pair.publicKey, [{ type: pkcs11js.CKA_EC_POINT }]))[0]!.value as Buffer);
    });
  }

  /**
   * Stores an existing private key (32 bytes) under `label` as a sensitive, non-extractable object, with its public
   * key beside it. The caller zeroes `secret`; the module keeps its own copy.
   */
  async importKey(label: string, secret: Uint8Array, publicKey: Uint8Array): Promise<void> {
    await this.pool.use('import a key', (session) => {
      const value = Buffer.from(secret);
      try {
        this.call('import a key', () => this.lib.C_CreateObject(session, [...privateTemplate(label), { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY }, { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC }, { type: pkcs11js.CKA_EC_PARAMS, value: SECP256K1_EC_PARAMS }, { type: pkcs11js.CKA_VALUE, value }]));
      } finally {
        value.fill(0);
      }
      const point = encodeEcPoint(publicKey);
      this.call('import a key', () => this.lib.C_CreateObject(session, [...publicTemplate(label), { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PUBLIC_KEY }, { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC }, { type: pkcs11js.CKA_EC_POINT, value: point }]));
    });
  }

  /** The public key (04 ‖ x ‖ y) stored under `label`, or undefined when the token has none. */
  async publicKey(label: string): Promise<Buffer | undefined> {
    return this.pool.use('read a public key', (session) => {
      const handle = this.find(session, pkcs11js.CKO_PUBLIC_KEY, label);
      if (!handle) return undefined;
      return decodeEcPoint(this.call('read a public key', () => this.lib.C_GetAttributeValue(session, handle, [{ type: pkcs11js.CKA_EC_POINT }]))[0]!.value as Buffer);
    });
  }

  /** CKM_ECDSA over a 32-byte digest with the key under `label`: r ‖ s, 64 bytes, s as the token chose it. */
  async sign(label: string, digest: Uint8Array): Promise<Buffer> {
    if (digest.length !== 32) throw new Error('a digest to sign is 32 bytes');
    try {
      return await this.pool.use('sign', async (session) => {
        const key = this.handles.get(label) ?? this.find(session, pkcs11js.CKO_PRIVATE_KEY, label);
        if (!key) throw new TokenObjectMissingError(label);
        this.handles.set(label, key);
        this.call('sign', () => this.lib.C_SignInit(session, { mechanism: pkcs11js.CKM_ECDSA }, key));
        // On libuv's pool: a token's signature (an HSM's round trip) does not hold up the event loop.
        const signature = await this.call('sign', () => this.lib.C_SignAsync(session, Buffer.from(digest), Buffer.alloc(64)));
        if (signature.length !== 64) throw new CustodyUnavailableError('sign', `the signature is ${signature.length} bytes, not 64`);
        return signature;
      });
    } catch (err) {
      // A stale handle (the object deleted and made again) is looked up afresh next time.
      this.handles.delete(label);
      throw err;
    }
  }

  /** Closes the sessions and lets go of the module (finalized once its last user closes). */
  close(): void {
    this.pool.close();
    this.handles.clear();
    releaseModule(this.options.module);
  }

  private find(session: Handle, objectClass: number, label: string): Handle | undefined {
    return this.call('find a key', () => {
      this.lib.C_FindObjectsInit(session, [
        { type: pkcs11js.CKA_CLASS, value: objectClass },
        { type: pkcs11js.CKA_LABEL, value: label },
      ]);
      try {
        const found = this.lib.C_FindObjects(session, 2);
        if (found.length > 1) throw new CustodyUnavailableError('find a key', `several objects are labelled "${label}"`);
        return found[0];
      } finally {
        this.lib.C_FindObjectsFinal(session);
      }
    });
  }

  /** Runs a token call, turning its failure into CustodyUnavailableError (which the pool takes as a broken session). */
  private call<T>(operation: string, work: () => T): T {
    try {
      const result = work();
      if (result instanceof Promise) return result.catch((err: unknown) => Promise.reject(unavailable(operation, err))) as T;
      return result;
    } catch (err) {
      throw unavailable(operation, err);
    }
  }
}

function unavailable(operation: string, err: unknown): Error {
  return err instanceof CustodyUnavailableError ? err : new CustodyUnavailableError(operation, reasonOf(err));
}

function findSlot(lib: pkcs11js.PKCS11, label: string): Handle {
  let labels: Array<{ slot: Handle; label: string }>;
  try {
    labels = lib.C_GetSlotList(true).map((slot) => ({ slot, label: lib.C_GetTokenInfo(slot).label.trimEnd() }));
  } catch (err) {
    throw new TokenConfigError('PKCS11_MODULE', `could not list the module's tokens (${reasonOf(err)})`);
  }
  const found = labels.find((token) => token.label === label);
  if (found) return found.slot;
  const known = labels.map((token) => JSON.stringify(token.label)).join(', ') || 'none';
  throw new TokenConfigError('PKCS11_TOKEN_LABEL', `no token labelled "${label}" in the module (tokens there: ${known})`);
}

/** A private key the token signs with and never shows: sensitive, not extractable, persistent, behind the login. */
function privateTemplate(label: string): pkcs11js.Template {
  return [
    { type: pkcs11js.CKA_TOKEN, value: true },
    { type: pkcs11js.CKA_PRIVATE, value: true },
    { type: pkcs11js.CKA_SENSITIVE, value: true },
    { type: pkcs11js.CKA_EXTRACTABLE, value: false },
    { type: pkcs11js.CKA_SIGN, value: true },
    { type: pkcs11js.CKA_DERIVE, value: false },
    { type: pkcs11js.CKA_LABEL, value: label },
    // CKA_ID pairs the private key with its public key for tools such as pkcs11-tool.
    { type: pkcs11js.CKA_ID, value: Buffer.from(label) },
  ];
}

function publicTemplate(label: string): pkcs11js.Template {
  return [
    { type: pkcs11js.CKA_TOKEN, value: true },
    { type: pkcs11js.CKA_PRIVATE, value: false },
    { type: pkcs11js.CKA_VERIFY, value: true },
    { type: pkcs11js.CKA_LABEL, value: label },
    { type: pkcs11js.CKA_ID, value: Buffer.from(label) },
    { type: pkcs11js.CKA_EC_PARAMS, value: SECP256K1_EC_PARAMS },
  ];
}

/** A refused PIN names the variable the operator set: PKCS11_PIN, or PKCS11_PIN_FILE and its path. */
function pinRefused(options: TokenOptions, reason: string): TokenConfigError {
  const source = options.pinSource ?? { variable: 'PKCS11_PIN' };
  const where = source.variable === 'PKCS11_PIN_FILE' ? ` in ${source.path}` : '';
  return new TokenConfigError(source.variable, `the token "${options.tokenLabel}" refused the PIN${where} (${reason})`);
}

/** The variable that gave the PIN, and for PKCS11_PIN_FILE the file's path (never the PIN). */
export type PinSource = { variable: 'PKCS11_PIN' } | { variable: 'PKCS11_PIN_FILE'; path: string };

/**
 * The token cannot be used as configured: the module does not load, no token has the label, or the PIN is refused.
 * `variable` names the setting to look at; the message never quotes the PIN.
 */
export class TokenConfigError extends Error {
  override readonly name = 'TokenConfigError';
  constructor(
    readonly variable: 'PKCS11_MODULE' | 'PKCS11_TOKEN_LABEL' | PinSource['variable'],
    detail: string,
  ) {
    super(`${variable}: ${detail}`);
  }
}

/**
 * The token was configured and opened, but an operation on it failed (the token or its module went away, a session
 * was closed under us, the device answered an error). Nothing was signed; the caller refuses the request (503).
 */
export class CustodyUnavailableError extends Error {
  override readonly name = 'CustodyUnavailableError';
  constructor(
    readonly operation: string,
    /** The PKCS#11 return code's name (CKR_…) or the native error's first line: never key material. */
    readonly reason: string,
  ) {
    super(`the custody token could not ${operation}: ${reason}`);
  }
}

/** An object this deployment expects on the token is not there (a wallet's key deleted on the token, a wrong label). */
export class TokenObjectMissingError extends Error {
  override readonly name = 'TokenObjectMissingError';
  constructor(readonly label: string) {
    super(`no private key labelled "${label}" on the custody token`);
  }
}

/** The CKR_ name of a pkcs11js error, or its first line (the native layer's message carries no data). */
export function reasonOf(err: unknown): string {
  if (err instanceof Error) {
    const ckr = /CKR_[A-Z_]+/.exec(err.message);
    return ckr ? ckr[0] : (err.message.split('\n')[0] ?? err.name);
  }
  return 'a non-Error was thrown';
}

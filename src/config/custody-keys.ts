import { accessSync, constants, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { PinSource } from '../crypto/pkcs11/errors.js';
import { oneOf, Problems } from './env.js';

/** CUSTODY_KEYS and, for pkcs11, the token to use (docs/key-management.md#configuration). */
export type CustodyKeysConfig =
  | { backend: 'sealed' }
  | {
      backend: 'pkcs11';
      /** PKCS11_MODULE: the module's absolute path. */
      module: string;
      /** PKCS11_TOKEN_LABEL */
      tokenLabel: string;
      /** PKCS11_PIN, or the first line of PKCS11_PIN_FILE: a function, so no log line or dump of the config holds it. */
      pin: () => string;
      /** Where the PIN came from, for the message of a PIN the token refuses (never the PIN itself). */
      pinSource: PinSource;
    };

export const CUSTODY_BACKENDS = ['sealed', 'pkcs11'] as const;

/**
 * CUSTODY_KEYS (default sealed), PKCS11_MODULE, PKCS11_TOKEN_LABEL, PKCS11_PIN or PKCS11_PIN_FILE. What can be
 * checked without the token is checked here, every mistake at once; whether the token opens with that PIN is checked
 * when the process opens it (TokenConfigError). No message quotes the PIN or the PIN file's content.
 */
export function custodyKeysConfig(env: NodeJS.ProcessEnv): CustodyKeysConfig {
  const problems = new Problems();
  const backend = problems.read(() => oneOf(env, 'CUSTODY_KEYS', CUSTODY_BACKENDS, 'sealed'), 'sealed');
  const pkcs11Set = ['PKCS11_MODULE', 'PKCS11_TOKEN_LABEL', 'PKCS11_PIN', 'PKCS11_PIN_FILE'].filter((name) => env[name]);
  if (backend !== 'pkcs11') {
    // Set but unused is most likely a forgotten CUSTODY_KEYS=pkcs11: keys would be sealed in the database instead.
    if (pkcs11Set.length > 0) problems.note(`${pkcs11Set.join(', ')} ${pkcs11Set.length > 1 ? 'are' : 'is'} set but CUSTODY_KEYS is not pkcs11`);
    return problems.result({ backend: 'sealed' });
  }

  const module = env.PKCS11_MODULE ?? '';
  if (!module) problems.note('PKCS11_MODULE is required when CUSTODY_KEYS=pkcs11 (the module’s path, e.g. /usr/lib/softhsm/libsofthsm2.so)');
  else if (!isAbsolute(module)) problems.note(`PKCS11_MODULE must be an absolute path (got "${module}")`);
  else if (!readable(module)) problems.note(`PKCS11_MODULE: ${module} cannot be read (is the module installed?)`);

  const tokenLabel = env.PKCS11_TOKEN_LABEL ?? '';
  // A token label is 32 bytes, blank-padded (PKCS#11 CK_TOKEN_INFO).
  if (!tokenLabel) problems.note('PKCS11_TOKEN_LABEL is required when CUSTODY_KEYS=pkcs11');
  else if (Buffer.byteLength(tokenLabel) > 32 || tokenLabel !== tokenLabel.trim()) problems.note('PKCS11_TOKEN_LABEL must be 1 to 32 bytes without leading or trailing blanks');

  let pin: string | undefined;
  if (env.PKCS11_PIN && env.PKCS11_PIN_FILE) problems.note('set PKCS11_PIN or PKCS11_PIN_FILE, not both');
  else if (env.PKCS11_PIN) pin = env.PKCS11_PIN;
  else if (env.PKCS11_PIN_FILE) pin = readPinFile(env.PKCS11_PIN_FILE, problems);
  else problems.note('PKCS11_PIN or PKCS11_PIN_FILE is required when CUSTODY_KEYS=pkcs11');
  if (pin !== undefined && (pin.length < 4 || pin.length > 255 || /[\r\n]/.test(pin))) problems.note('the PKCS#11 PIN must be 4 to 255 characters on one line');

  const secret = pin ?? '';
  const pinSource: PinSource = env.PKCS11_PIN_FILE ? { variable: 'PKCS11_PIN_FILE', path: env.PKCS11_PIN_FILE } : { variable: 'PKCS11_PIN' };
  return problems.result({ backend: 'pkcs11', module, tokenLabel, pin: () => secret, pinSource });
}

function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** The file's first line (a trailing newline is not part of the PIN). */
function readPinFile(path: string, problems: Problems): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    problems.note(`PKCS11_PIN_FILE: ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    return undefined;
  }
  const pin = text.replace(/\r?\n$/, '');
  if (pin === '') problems.note(`PKCS11_PIN_FILE: ${path} is empty`);
  return pin === '' ? undefined : pin;
}

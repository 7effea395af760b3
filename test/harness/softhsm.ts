import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** Debian's softhsm2 package: the module and its token tool. */
export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';
const SOFTHSM_UTIL = '/usr/bin/softhsm2-util';

/**
 * Whether the SoftHSM2 tests of `what` must be skipped: true, with a warning nobody can miss, when softhsm2 is not
 * installed; with REQUIRE_SOFTHSM=1 (CI) a missing module is an error instead of a skip.
 */
export function softHsmMissing(what: string): boolean {
  if (existsSync(SOFTHSM_MODULE) && existsSync(SOFTHSM_UTIL)) return false;
  if (process.env.REQUIRE_SOFTHSM === '1') throw new Error(`REQUIRE_SOFTHSM=1 but ${SOFTHSM_MODULE} is missing: apt-get install softhsm2`);
  console.warn(`\n!!! ${SOFTHSM_MODULE} is missing: ${what} SKIPPED (apt-get install softhsm2; CI sets REQUIRE_SOFTHSM=1) !!!\n`);
  return true;
}

/** A throwaway token: its label and PINs, and the environment a server needs to keep custody keys on it. */
export interface TestToken {
  label: string;
  pin: string;
  soPin: string;
  /** CUSTODY_KEYS=pkcs11 and the PKCS11_* variables for startServer. */
  env: Record<string, string>;
  /** The token's own folder under the token directory: removing it takes the token away under a running server. */
  dir: string;
}

let configured: { root: string; tokenDir: string } | undefined;

/**
 * A SoftHSM2 configuration of this test process's own, in a temporary folder with its own token directory.
 * SOFTHSM2_CONF is read when the module initializes, once per process, so every token of the process lives under
 * this one directory; tokens made while the module is loaded are found once it is opened afresh.
 */
function softHsmConfig(): { root: string; tokenDir: string } {
  if (configured) return configured;
  const root = mkdtempSync(join(tmpdir(), 'softhsm-'));
  const tokenDir = join(root, 'tokens');
  mkdirSync(tokenDir);
  const conf = join(root, 'softhsm2.conf');
  writeFileSync(conf, `directories.tokendir = ${tokenDir}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`);
  process.env.SOFTHSM2_CONF = conf;
  process.on('exit', () => rmSync(root, { recursive: true, force: true }));
  configured = { root, tokenDir };
  return configured;
}

/** Initializes a new token (`softhsm2-util --init-token --free`) with a random label and PINs. */
export async function createTestToken(): Promise<TestToken> {
  const { tokenDir } = softHsmConfig();
  const label = `test-${randomBytes(6).toString('hex')}`;
  const pin = randomBytes(8).toString('hex');
  const soPin = randomBytes(8).toString('hex');
  // SoftHSM2 names a token's folder by a fresh UUID: the folder that was not there before is this token's.
  const before = new Set(readdirSync(tokenDir));
  await promisify(execFile)(SOFTHSM_UTIL, ['--init-token', '--free', '--label', label, '--pin', pin, '--so-pin', soPin], { env: process.env });
  const folder = readdirSync(tokenDir).find((name) => !before.has(name));
  if (!folder) throw new Error(`softhsm2-util made no token folder under ${tokenDir}`);
  return { label, pin, soPin, dir: join(tokenDir, folder), env: { CUSTODY_KEYS: 'pkcs11', PKCS11_MODULE: SOFTHSM_MODULE, PKCS11_TOKEN_LABEL: label, PKCS11_PIN: pin } };
}

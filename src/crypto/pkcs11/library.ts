import pkcs11js from 'pkcs11js';
import { reasonOf, TokenConfigError } from './errors.js';

/**
 * A PKCS#11 module is initialized once per process (a second C_Initialize answers CKR_CRYPTOKI_ALREADY_INITIALIZED,
 * and C_Finalize would close every other user's sessions), so each module path is loaded once and shared, counted,
 * and finalized when its last user closes. A module finalized and opened again reads its configuration again
 * (SoftHSM2 finds tokens created meanwhile).
 */
interface Loaded {
  lib: pkcs11js.PKCS11;
  users: number;
}

const loaded = new Map<string, Loaded>();

export function acquireModule(path: string): pkcs11js.PKCS11 {
  const existing = loaded.get(path);
  if (existing) {
    existing.users++;
    return existing.lib;
  }
  const lib = new pkcs11js.PKCS11();
  try {
    lib.load(path);
  } catch (err) {
    throw new TokenConfigError('PKCS11_MODULE', `cannot load ${path} (${reasonOf(err)})`);
  }
  try {
    // Sessions are used from libuv's threads (C_SignAsync): the module must do its own locking.
    lib.C_Initialize({ flags: pkcs11js.CKF_OS_LOCKING_OK });
  } catch (err) {
    if (reasonOf(err) !== 'CKR_CRYPTOKI_ALREADY_INITIALIZED') {
      closeQuietly(lib);
      throw new TokenConfigError('PKCS11_MODULE', `${path} did not initialize (${reasonOf(err)})`);
    }
  }
  loaded.set(path, { lib, users: 1 });
  return lib;
}

export function releaseModule(path: string): void {
  const entry = loaded.get(path);
  if (!entry || --entry.users > 0) return;
  loaded.delete(path);
  try {
    entry.lib.C_Finalize();
  } catch {
    // Finalizing a module whose token went away may fail; the process lets go of it all the same.
  }
  closeQuietly(entry.lib);
}

function closeQuietly(lib: pkcs11js.PKCS11): void {
  try {
    lib.close();
  } catch {
    // Unloading is best effort.
  }
}

import { sealContexts } from '../../crypto/seal-contexts.js';
import type { MutationContext } from '../context.js';
import type { UserInfo } from './types.js';
import { normalizeSsn } from './validation/index.js';

/** The SSN is sealed, fingerprinted for duplicate checks, and only its last four digits stay readable. */
export function sealSsn(ctx: MutationContext, ssn: string | null | undefined, ownerId: string) {
  if (!ssn) return { ssnSealed: null, ssnLast4: null, ssnFingerprint: null };
  const digits = normalizeSsn(ssn);
  return {
    ssnSealed: ctx.secrets.seal(digits, sealContexts.ssn(ownerId)),
    ssnLast4: digits.slice(-4),
    ssnFingerprint: ctx.secrets.fingerprint(digits, 'ssn'),
  };
}

/** UserInfo as stored in clear: the SSN goes to the sealed columns only. */
export function withoutSsn(userInfo: UserInfo): Omit<UserInfo, 'socialSecurityNumber'> {
  const { socialSecurityNumber: _ssn, ...rest } = userInfo;
  return rest;
}

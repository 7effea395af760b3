import type { MutationContext } from '../context.js';
import type { FieldError } from '../errors.js';
import type { UserInfo } from './types.js';
import { sealSsn } from './ssn-at-rest.js';
import { validateUserInfo } from './validation/index.js';

/**
 * A UserInfo patch over a stored person (user or associated person): merged field by field, validated as a
 * whole, the SSN sealed only when a new one is sent. A stored SSN (sealed, so absent from userInfo here) still
 * satisfies "required for US residents".
 */
export function mergeUserInfo(
  ctx: MutationContext,
  stored: { id: string; userInfo: unknown; ssnLast4: string | null; ssnFingerprint: string | null },
  patch: Partial<UserInfo> | undefined,
): { userInfo: UserInfo; sealed: Partial<ReturnType<typeof sealSsn>>; ssnChanged: boolean; errors: FieldError[] } {
  const userInfo: UserInfo = { ...(stored.userInfo as UserInfo), ...patch };
  const ssnGiven = patch?.socialSecurityNumber !== undefined;
  const errors = validateUserInfo(userInfo, '/userInfo', ctx.now).filter(
    (e) => !(e.pointer === '/userInfo/socialSecurityNumber' && e.code === 'required' && stored.ssnLast4 && !ssnGiven),
  );
  const sealed: Partial<ReturnType<typeof sealSsn>> = ssnGiven ? sealSsn(ctx, userInfo.socialSecurityNumber, stored.id) : {};
  return { userInfo, sealed, ssnChanged: ssnGiven && sealed.ssnFingerprint !== stored.ssnFingerprint, errors };
}

/**
 * The previous values of the fields whose API representation changed. The views show the SSN masked, so a new
 * SSN ending in the same four digits is reported through `ssnChanged`.
 */
export function previousAttributesOf<T extends { userInfo: unknown }>(before: T, after: T, keys: readonly (keyof T & string)[], ssnChanged: boolean): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of keys) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changed[key] = before[key] ?? null;
  }
  if (ssnChanged) changed.userInfo = before.userInfo;
  return changed;
}

import { ApiError, invalidFields, type FieldError } from '../errors.js';

/**
 * Throws one 400 carrying every field error found. A request whose only problem is missing KYC information
 * for a high-risk or older user gets its own code, so integrators can branch on it.
 */
export function throwIfInvalid(errors: readonly FieldError[]): void {
  if (errors.length === 0) return;
  if (errors.every((e) => e.code === 'additional_user_info_required')) {
    throw new ApiError('additional_user_info_required', 'additionalUserInfo is required for this user', { errors: [...errors] });
  }
  throw invalidFields(errors);
}

/** serviceTermsSignedAt cannot lie in the future (a few minutes of clock skew allowed). */
export function checkSignedAt(value: string, pointer: string, now: Date): FieldError[] {
  const at = Date.parse(value);
  if (Number.isNaN(at)) return [{ pointer, code: 'invalid_date', detail: `${pointer.slice(1)} must be an ISO 8601 date-time`, in: 'body' }];
  if (at > now.getTime() + 5 * 60_000) return [{ pointer, code: 'invalid_date', detail: `${pointer.slice(1)} cannot be in the future`, in: 'body' }];
  return [];
}

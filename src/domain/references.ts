import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A payment reference: the prefix, a dash and 12 Crockford base32 characters (60 random bits; no I, L, O or U),
 * short enough to type into a bank transfer. Unique indexes refuse the improbable collision.
 */
export function newPaymentReference(prefix: 'DEP' | 'WDR'): string {
  return `${prefix}-${[...randomBytes(12)].map((b) => CROCKFORD[b & 31]).join('')}`;
}

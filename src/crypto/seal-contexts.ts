/**
 * Every sealing context in one place. A context is bound to a ciphertext as additional data, so the sealing and
 * the opening side must spell it identically; a value sealed for one row does not open for another.
 */
export const sealContexts = {
  /** A custodial wallet's private key. */
  walletKey: (walletId: string) => `wallet:${walletId}`,
  /** A document's bytes, bound to the user, entity or person that owns it. */
  document: (ownerType: string, ownerId: string) => `document:${ownerType}:${ownerId}`,
  /** A social security number (the digits), bound to its owner. */
  ssn: (ownerId: string) => `ssn:${ownerId}`,
  /** A bank account's number (ACH account number or IBAN), bound to its row. */
  bankAccountNumber: (bankAccountId: string) => `bank_account:${bankAccountId}`,
  /** The private half of a webhook signing key. */
  webhookSigningKey: (keyId: string) => `webhook_signing_key:${keyId}`,
  /** A subscription's custom header values (a JSON object). */
  webhookHeaders: (subscriptionId: string) => `webhook-headers:${subscriptionId}`,
  /** A sandbox outbox message's text or its one-time code. */
  otpOutbox: (messageId: string, part: 'body' | 'code') => `otp-outbox:${messageId}:${part}`,
  /** A queued email's subject or body (an invitation's body holds its token). */
  mailOutbox: (messageId: string, part: 'subject' | 'body') => `mail-outbox:${messageId}:${part}`,
  /** A stored idempotent answer. */
  idempotentAnswer: (integratorId: string, key: string) => `idempotency:${integratorId}:${key}`,
} as const;

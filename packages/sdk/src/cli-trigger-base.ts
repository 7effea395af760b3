// What the `integrator trigger` modules share: options, results, --data merging, and fake but valid people and documents.
import { randomBytes, randomInt } from 'node:crypto';
import type { IntegratorClient } from './client.js';
import { IntegratorApiError } from './errors.js';

/** A mistake in the command line: printed as is, exit code 64. */
export class UsageError extends Error {}

/** A type this sandbox cannot make (or not without what is missing): the message says why and how to cause it; exit 1. */
export class TriggerRefused extends Error {}

export interface TriggerOptions {
  /** webhook.test: the subscription to deliver to. */
  subscription?: string | undefined;
  /** transaction.*: the chain (default 31337, the chain of `npm run chain`). */
  chainId?: string | undefined;
  /** transaction.*: an active individual account to deposit to, instead of a new one. */
  account?: string | undefined;
  /** webhook_subscription.created: the subscription's URL. */
  url?: string | undefined;
  /** Fields merged into the body of the request that makes the event (`--data JSON`): objects merged, the rest replaced. */
  overrides?: Record<string, unknown> | undefined;
  /** How the CLI was invoked (`integrator`, or `npm run -s cli --` in the repository), for messages. */
  command?: string | undefined;
  /** The clock member approvals are dated with (milliseconds; default Date.now): the server's, within 5 minutes. */
  nowMs?: (() => number) | undefined;
  /** transaction.completed: how long to wait for the payout to be mined (default 60 s). */
  waitMs?: number | undefined;
}

export type Result = Record<string, unknown> & { triggered: string[] };
export type Trigger = (api: IntegratorClient, options: TriggerOptions, type: string) => Promise<unknown>;

export const DEFAULT_CHAIN_ID = 31337;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `body` with `overrides` merged in, deeply for objects (an array or a scalar replaces what was there). */
export function withOverrides<T>(body: T, overrides: Record<string, unknown> | undefined): T {
  if (!overrides) return body;
  const merged: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [key, value] of Object.entries(overrides)) merged[key] = isObject(value) && isObject(merged[key]) ? withOverrides(merged[key], value) : value;
  return merged as T;
}

/** The options for the set-up requests before the one that makes the event: --data is for that one only. */
export const setup = (options: TriggerOptions): TriggerOptions => ({ ...options, overrides: undefined });

/** A `%PDF-` document whose bytes differ on every call (the checks flag a file shared between people). */
export function pdfDataUrl(label: string): string {
  return `data:application/pdf;base64,${Buffer.from(`%PDF-1.4 ${label} ${randomBytes(8).toString('hex')}`, 'latin1').toString('base64')}`;
}

export const tag = () => randomBytes(4).toString('hex');

/** A passport (random number) and a proof of address issued by `country`. */
export function personDocuments(country: 'USA' | 'DEU') {
  return [
    { documentType: 'passport' as const, issuingCountry: country, documentNumber: `P${randomInt(10_000_000, 100_000_000)}`, document: pdfDataUrl('passport') },
    { documentType: 'proof_of_address' as const, issuingCountry: country, document: pdfDataUrl('utility bill') },
  ];
}

/** Maria Garcia of San Francisco with a random SSN (one the SSA could issue: area 001-665, group 01-99, serial 0001-9999). */
export function californian(email = `maria.garcia+${tag()}@example.com`) {
  const ssn = `${String(randomInt(1, 666)).padStart(3, '0')}-${String(randomInt(1, 100)).padStart(2, '0')}-${String(randomInt(1, 10000)).padStart(4, '0')}`;
  return {
    firstName: 'Maria',
    lastName: 'Garcia',
    email,
    phone: '+14155552671',
    birthDate: '1988-04-12',
    nationality: 'USA' as const,
    countryOfBirth: 'USA' as const,
    residentialAddress: { streetLine1: '1 Market St', city: 'San Francisco', state: 'US-CA', postalCode: '94105', country: 'USA' as const },
    socialSecurityNumber: ssn,
  };
}

/** A complete individual account (a Californian with a passport and a proof of address): it goes to review at once. */
export function individualAccountBody(email?: string) {
  return { userInfo: californian(email), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocuments('USA') };
}

/** Terms signed an hour ago. */
export const signedAt = () => new Date(Date.now() - 3600_000).toISOString();

/** A refusal of the API as a sentence naming the request, with a hint of what to change. */
export function refusal(options: TriggerOptions, type: string, what: string, err: unknown, hint = ''): unknown {
  if (!(err instanceof IntegratorApiError)) return err;
  const detail = typeof err.problem.detail === 'string' ? err.problem.detail : err.message;
  return new TriggerRefused(`${options.command ?? 'integrator'} trigger ${type}: the sandbox refused ${what} (${err.status} ${err.code}): ${detail}.${hint}`);
}

// `integrator trigger TYPE`: makes an event happen in the sandbox, with the operations (and sandbox simulations) that
// produce it, so a developer sees it arrive at a webhook endpoint. Fake but valid data, distinct on every run.
import { randomBytes, randomInt } from 'node:crypto';
import type { IntegratorClient } from './client.js';
import { IntegratorApiError } from './errors.js';
import { generateSigningKey } from './signing.js';

/** A mistake in the command line: printed as is, exit code 64. */
export class UsageError extends Error {}

export interface TriggerOptions {
  /** webhook.test: the subscription to deliver to. */
  subscription?: string | undefined;
  /** transaction.*: the deposit's chain (default 31337, the chain of `npm run chain`). */
  chainId?: string | undefined;
  /** transaction.*: an active individual account to deposit to, instead of a new one. */
  account?: string | undefined;
  /** webhook_subscription.created: the subscription's URL. */
  url?: string | undefined;
  /** Fields merged into the body of the request that makes the event (`--data JSON`): objects merged, the rest replaced. */
  overrides?: Record<string, unknown> | undefined;
  /** How the CLI was invoked (`integrator`, or `npm run -s cli --` in the repository), for messages. */
  command?: string | undefined;
}

type Result = Record<string, unknown> & { triggered: string[] };

const DEFAULT_CHAIN_ID = 31337;
// An address literal, so the server's endpoint check needs no DNS and the trigger works offline; the subscription is
// disabled, listens to webhook.test only and is deleted at once, so nothing is ever sent there.
const DEFAULT_SUBSCRIPTION_URL = 'https://1.1.1.1/integrator-trigger';
const DEPOSIT_AMOUNT = '100.00';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `body` with `overrides` merged in, deeply for objects (an array or a scalar replaces what was there). */
export function withOverrides<T>(body: T, overrides: Record<string, unknown> | undefined): T {
  if (!overrides) return body;
  const merged: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [key, value] of Object.entries(overrides)) merged[key] = isObject(value) && isObject(merged[key]) ? withOverrides(merged[key], value) : value;
  return merged as T;
}

/** A `%PDF-` document whose bytes differ on every call (the checks flag a file shared between people). */
function pdfDataUrl(label: string): string {
  return `data:application/pdf;base64,${Buffer.from(`%PDF-1.4 ${label} ${randomBytes(8).toString('hex')}`, 'latin1').toString('base64')}`;
}

/** A complete individual account (a Californian with a passport and a proof of address): it goes to review at once. */
function individualAccountBody() {
  const tag = randomBytes(4).toString('hex');
  // An SSN the SSA could issue (area 001-665, group 01-99, serial 0001-9999), random so no two people share one.
  const ssn = `${String(randomInt(1, 666)).padStart(3, '0')}-${String(randomInt(1, 100)).padStart(2, '0')}-${String(randomInt(1, 10000)).padStart(4, '0')}`;
  return {
    userInfo: {
      firstName: 'Maria',
      lastName: 'Garcia',
      email: `maria.garcia+${tag}@example.com`,
      phone: '+14155552671',
      birthDate: '1988-04-12',
      nationality: 'USA' as const,
      countryOfBirth: 'USA' as const,
      residentialAddress: { streetLine1: '1 Market St', city: 'San Francisco', state: 'US-CA', postalCode: '94105', country: 'USA' as const },
      socialSecurityNumber: ssn,
    },
    serviceTermsSignedAt: new Date(Date.now() - 3600_000).toISOString(),
    verificationDocuments: [
      { documentType: 'passport' as const, issuingCountry: 'USA' as const, documentNumber: `P${randomInt(10_000_000, 100_000_000)}`, document: pdfDataUrl('passport') },
      { documentType: 'proof_of_address' as const, issuingCountry: 'USA' as const, document: pdfDataUrl('utility bill') },
    ],
  };
}

async function createAccount(api: IntegratorClient, options: TriggerOptions): Promise<Result & { userId: string; accountId: string }> {
  const created = await api.createIndividualAccount({ body: withOverrides(individualAccountBody(), options.overrides) });
  return { triggered: ['user.created', 'account.created'], userId: created.userId, accountId: created.accountId, verificationStatus: created.verificationStatus };
}

async function verifiedAccount(api: IntegratorClient, options: TriggerOptions): Promise<Result & { userId: string; accountId: string }> {
  const created = await createAccount(api, options);
  const verified = await api.simulateVerification({ body: { accountId: created.accountId, outcome: 'approve' } });
  return { ...created, triggered: [...created.triggered, 'user.verification_status.changed'], verificationStatus: verified.verificationStatus };
}

/** A fiat deposit (waiting_for_funds), and with `arrive` its funds (funds_in_transfer); the payout follows on its own. */
async function deposit(api: IntegratorClient, type: string, options: TriggerOptions, arrive: boolean): Promise<Result> {
  const chainId = options.chainId === undefined ? DEFAULT_CHAIN_ID : Number(options.chainId);
  if (!Number.isSafeInteger(chainId) || chainId < 0) throw new UsageError('--chain-id must be a chain id (an integer)');
  const before: Result = options.account ? { triggered: [], accountId: options.account } : await verifiedAccount(api, { ...options, overrides: undefined });
  const accountId = before.accountId as string;
  let created;
  try {
    created = await api.createDeposit({ body: withOverrides({ accountId, amount: DEPOSIT_AMOUNT, currency: 'USD' as const, chainId }, options.overrides) });
  } catch (err) {
    if (!(err instanceof IntegratorApiError)) throw err;
    const detail = typeof err.problem.detail === 'string' ? err.problem.detail : err.message;
    const hint =
      err.code === 'unsupported_chain'
        ? ` Start a local chain (\`npm run chain\`) and the server with CHAIN_RPC_URLS=${DEFAULT_CHAIN_ID}=http://127.0.0.1:8545, or pass --chain-id with one of the server's chains (docs/deposits.md).`
        : err.code === 'deposits_unavailable'
          ? ' The server has no bank details or treasury for deposits (docs/deposits.md#configuration-per-deployment).'
          : '';
    const meanwhile = before.triggered.length > 0 ? ` Made meanwhile: account ${accountId} (${before.triggered.join(', ')}); --account ${accountId} deposits to it next time.` : '';
    throw new Error(`${options.command ?? 'integrator'} trigger ${type}: the sandbox refused the deposit (${err.status} ${err.code}): ${detail}.${hint}${meanwhile}`);
  }
  const result: Result = { ...before, triggered: [...before.triggered, 'transaction.created'], transactionId: created.transactionId, status: created.status, chainId };
  if (!arrive) return result;
  const funded = await api.simulateDeposit({ body: { transactionId: created.transactionId, amount: DEPOSIT_AMOUNT } });
  return {
    ...result,
    triggered: [...result.triggered, 'transaction.status.changed'],
    status: funded.status,
    note: 'the payout from the treasury follows (transaction.status.changed to processing, then transaction.completed) when the treasury has funds',
  };
}

/** A throwaway read-only key: created, `also` done with it, then deleted so nothing usable is left behind. */
async function throwawayKey(api: IntegratorClient, options: TriggerOptions, also: string[], then?: (pubkey: string) => Promise<unknown>): Promise<Result> {
  const body = withOverrides({ label: 'integrator trigger', scope: 'read_only' as const, publicKey: generateSigningKey().publicKey }, options.overrides);
  const created = await api.createCredential({ body });
  await then?.(created.credential.publicKey);
  await api.deleteCredential({ path: { pubkey: created.credential.publicKey } });
  return { triggered: ['credential.created', ...also, 'credential.deleted'], credentialId: created.credential.credentialId, publicKey: created.credential.publicKey };
}

/** A subscription, disabled and listening to webhook.test only (nothing is delivered), `also` done with it, then deleted. */
async function throwawaySubscription(api: IntegratorClient, options: TriggerOptions, also: string[], then?: (id: string) => Promise<unknown>): Promise<Result> {
  const body = withOverrides({ name: 'integrator trigger', url: options.url ?? DEFAULT_SUBSCRIPTION_URL, eventTypes: ['webhook.test'], enabled: false }, options.overrides);
  const { subscription } = await api.createWebhookSubscription({ body });
  await then?.(subscription.id);
  await api.deleteWebhookSubscription({ path: { subscriptionId: subscription.id } });
  return { triggered: ['webhook_subscription.created', ...also, 'webhook_subscription.deleted'], subscriptionId: subscription.id };
}

/** A verified account's fiat deposits turned off (`enable` then on again): --data goes to the products' requests. */
async function toggledProduct(api: IntegratorClient, options: TriggerOptions, enable: boolean): Promise<Result> {
  const account = options.account ? { triggered: [], accountId: options.account } : await verifiedAccount(api, { ...options, overrides: undefined });
  const body = withOverrides({ accountId: account.accountId as string, productId: 'fiat_deposits' }, options.overrides);
  await api.disableProduct({ body });
  if (enable) await api.enableProduct({ body });
  return { ...account, triggered: [...account.triggered, 'account.product_disabled', ...(enable ? ['account.product_enabled'] : [])], productId: body.productId };
}

/** Each type `trigger` knows, with what it does. */
const TRIGGERS: Record<string, (api: IntegratorClient, options: TriggerOptions, type: string) => Promise<unknown>> = {
  'account.created': (api, options) => createAccount(api, options),
  'account.product_disabled': (api, options) => toggledProduct(api, options, false),
  'account.product_enabled': (api, options) => toggledProduct(api, options, true),
  'credential.created': (api, options) => throwawayKey(api, options, []),
  'credential.deleted': (api, options) => throwawayKey(api, options, []),
  'credential.updated': (api, options) => throwawayKey(api, options, ['credential.updated'], (pubkey) => api.updateCredential({ path: { pubkey }, body: { label: 'integrator trigger (renamed)' } })),
  'transaction.created': (api, options, type) => deposit(api, type, options, false),
  'transaction.status.changed': (api, options, type) => deposit(api, type, options, true),
  'user.created': (api, options) => createAccount(api, options),
  'user.updated': async (api, options) => {
    const created = await createAccount(api, { ...options, overrides: undefined });
    await api.updateUser({ body: withOverrides({ userId: created.userId, userInfo: { phone: '+14155550123' } }, options.overrides) });
    return { ...created, triggered: [...created.triggered, 'user.updated'] };
  },
  'user.verification_status.changed': (api, options) => verifiedAccount(api, options),
  'webhook.test': async (api, options) => {
    if (!options.subscription) throw new UsageError(`${options.command ?? 'integrator'} trigger webhook.test needs --subscription ID`);
    return api.sendWebhookTest({ path: { subscriptionId: options.subscription } });
  },
  'webhook_subscription.created': (api, options) => throwawaySubscription(api, options, []),
  'webhook_subscription.deleted': (api, options) => throwawaySubscription(api, options, []),
  'webhook_subscription.key_rotated': (api, options) =>
    throwawaySubscription(api, options, ['webhook_subscription.key_rotated'], (subscriptionId) => api.rotateWebhookSigningKey({ path: { subscriptionId } })),
  'webhook_subscription.updated': (api, options) =>
    throwawaySubscription(api, options, ['webhook_subscription.updated'], (subscriptionId) => api.updateWebhookSubscription({ path: { subscriptionId }, body: { name: 'integrator trigger (renamed)' } })),
};

export const TRIGGER_TYPES = Object.keys(TRIGGERS).sort();

/** Runs the trigger of `type`; an unknown type is a usage error listing the known ones. */
export async function trigger(api: IntegratorClient, type: string, options: TriggerOptions): Promise<unknown> {
  const run = Object.hasOwn(TRIGGERS, type) ? TRIGGERS[type] : undefined;
  if (!run) throw new UsageError(`${options.command ?? 'integrator'} trigger: unknown type ${type}; known types: ${TRIGGER_TYPES.join(', ')}`);
  return run(api, options, type);
}

// `integrator trigger TYPE`: makes an event happen in the sandbox, with the operations (and sandbox simulations) that
// produce it, so a developer sees it arrive at a webhook endpoint. Fake but valid data, distinct on every run.
import type { IntegratorClient } from './client.js';
import { DEFAULT_CHAIN_ID, individualAccountBody, setup, TriggerRefused, UsageError, withOverrides, type Result, type Trigger, type TriggerOptions } from './cli-trigger-base.js';
import { ENTITY_TRIGGERS } from './cli-trigger-entity.js';
import { IntegratorApiError } from './errors.js';
import { generateSigningKey } from './signing.js';

export { TriggerRefused, UsageError, withOverrides, type TriggerOptions } from './cli-trigger-base.js';

// An address literal, so the server's endpoint check needs no DNS and the trigger works offline; the subscription is
// disabled, listens to webhook.test only and is deleted at once, so nothing is ever sent there.
const DEFAULT_SUBSCRIPTION_URL = 'https://1.1.1.1/integrator-trigger';
const DEPOSIT_AMOUNT = '100.00';

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
  const before: Result = options.account ? { triggered: [], accountId: options.account } : await verifiedAccount(api, setup(options));
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
          ? ' The server has no treasury for deposits (docs/deposits.md#configuration-per-deployment).'
          : err.code === 'not_offered'
            ? ' The server has no bank details for the currency, or no rate for the asset (docs/deposits.md#configuration-per-deployment).'
            : '';
    const meanwhile = before.triggered.length > 0 ? ` Made meanwhile: account ${accountId} (${before.triggered.join(', ')}); --account ${accountId} deposits to it next time.` : '';
    throw new TriggerRefused(`${options.command ?? 'integrator'} trigger ${type}: the sandbox refused the deposit (${err.status} ${err.code}): ${detail}.${hint}${meanwhile}`);
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

/** A deposit whose funds arrive, followed until the treasury's payout is mined (transaction.completed) or fails. */
async function completedDeposit(api: IntegratorClient, type: string, options: TriggerOptions): Promise<Result> {
  const result = await deposit(api, type, options, true);
  const transactionId = result.transactionId as string;
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  for (;;) {
    const { status } = (await api.getTransaction({ query: { transactionId } })) as unknown as { status: string };
    if (status === 'completed') return { ...result, status, triggered: [...result.triggered, 'transaction.completed'], note: undefined };
    if (status === 'failed' || Date.now() > deadline) {
      throw new TriggerRefused(
        `${options.command ?? 'integrator'} trigger ${type}: deposit ${transactionId} is ${status}, not completed${status === 'failed' ? '' : ` after ${Math.round((options.waitMs ?? 60_000) / 1000)} s`}: its payout needs the treasury funded on the chain and the chain mining (\`npm run chain\` funds it; docs/deposits.md).`,
      );
    }
    // The payout is broadcast and mined by the server on its own; ask again shortly.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// onboarding_link.*: hosted onboarding links (docs/onboarding-links.md), made and moved through the API and the sandbox's simulation.
/** A link for a new individual (--data goes to its body), then `then` done with it. */
async function link(api: IntegratorClient, options: TriggerOptions, also: string[], then?: (id: string) => Promise<unknown>): Promise<Result> {
  const created = await api.createOnboardingLink({ body: withOverrides({ type: 'individual' as const }, options.overrides) });
  await then?.(created.onboardingLinkId);
  return { triggered: ['onboarding_link.created', ...also], onboardingLinkId: created.onboardingLinkId, url: created.url };
}

/** Why the sandbox cannot make onboarding_link.expired at once, and how to cause it. */
const LINK_REFUSED: Record<string, string> = {
  'onboarding_link.expired': 'a link expires at its expiresAt, at least 60 s after it was made, and no operation shortens that; `trigger onboarding_link.created --data \'{"expiresInSeconds":60}\'` makes one that will, a minute later',
};

const LINK_TRIGGERS: Record<string, Trigger> = {
  'onboarding_link.created': (api, options) => link(api, options, []),
  'onboarding_link.revoked': (api, options) => link(api, options, ['onboarding_link.revoked'], (onboardingLinkId) => api.revokeOnboardingLink({ path: { onboardingLinkId } })),
  'onboarding_link.opened': (api, options) =>
    link(api, options, ['onboarding_link.opened'], (onboardingLinkId) => api.simulateOnboardingLink({ body: { onboardingLinkId, outcome: 'opened' } })),
  'onboarding_link.completed': async (api, options) => {
    // The customer the flow would have made: an individual account of yours, standing in for it.
    const customer = await api.createIndividualAccount({ body: individualAccountBody() });
    const made = await link(api, options, ['onboarding_link.opened', 'onboarding_link.completed'], async (onboardingLinkId) => {
      await api.simulateOnboardingLink({ body: { onboardingLinkId, outcome: 'opened' } });
      await api.simulateOnboardingLink({ body: { onboardingLinkId, outcome: 'completed', userId: customer.userId } });
    });
    return { ...made, triggered: ['user.created', 'account.created', ...made.triggered], userId: customer.userId };
  },
};

/** Types the public API cannot make on purpose: why, and how to cause them instead. */
const REFUSED: Record<string, string> = {
  'integrator.created': 'the operator makes it, once, when creating the integrator (`npm run -s admin -- integrators create --name NAME`); yours is the first of your events: `events list --type integrator.created`',
  'review_case.opened': 'screening opens it, on a new screening-list hit of an active customer after the lists or its data changed, or on money from a listed wallet address; no operation opens one on purpose (docs/screening.md)',
  'webhook_subscription.disabled': 'the delivery worker makes it when a subscription\'s endpoint answers 410 Gone, or fails for WEBHOOK_DISABLE_AFTER_SECONDS: subscribe an endpoint of yours that answers 410 and send it a test (`trigger webhook.test --subscription ID`) (docs/webhooks.md)',
  'invitation.expired': 'an invitation expires 7 days after it was sent, unaccepted, and no operation shortens that; `trigger invitation.created` makes one that will',
  'account.wallet_created': 'only an entity account made before entities had wallets gets its wallet later (create-entity-wallet); every account made now has one from the start',
  ...LINK_REFUSED,
};

const refused = (reason: string): Trigger => async (_api, options, type) => {
  throw new TriggerRefused(`${options.command ?? 'integrator'} trigger ${type}: the sandbox cannot make this event through the API: ${reason}.`);
};

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
  const account = options.account ? { triggered: [], accountId: options.account } : await verifiedAccount(api, setup(options));
  const body = withOverrides({ accountId: account.accountId as string, productId: 'fiat_deposits' }, options.overrides);
  await api.disableProduct({ body });
  if (enable) await api.enableProduct({ body });
  return { ...account, triggered: [...account.triggered, 'account.product_disabled', ...(enable ? ['account.product_enabled'] : [])], productId: body.productId };
}

/**
 * A spending policy on a verified account (a new_destination_delay only, so no chain or token is needed), and with
 * `remove` deleted again: --data goes to create-policy's body.
 */
async function policy(api: IntegratorClient, options: TriggerOptions, remove: boolean): Promise<Result> {
  const account = options.account ? { triggered: [], accountId: options.account } : await verifiedAccount(api, setup(options));
  const body = withOverrides({ accountId: account.accountId as string, rules: [{ type: 'new_destination_delay' as const, hours: 24 }] }, options.overrides);
  const created = await api.createPolicy({ body });
  if (remove) await api.deletePolicy({ path: { policyId: created.policyId } });
  return { ...account, triggered: [...account.triggered, 'policy.created', ...(remove ? ['policy.deleted'] : [])], policyId: created.policyId };
}

/** Each type `trigger` knows, with what it does. */
const TRIGGERS: Record<string, Trigger> = {
  ...ENTITY_TRIGGERS,
  ...LINK_TRIGGERS,
  ...Object.fromEntries(Object.entries(REFUSED).map(([type, reason]) => [type, refused(reason)])),
  'transaction.completed': (api, options, type) => completedDeposit(api, type, options),
  'account.created': (api, options) => createAccount(api, options),
  'account.product_disabled': (api, options) => toggledProduct(api, options, false),
  'account.product_enabled': (api, options) => toggledProduct(api, options, true),
  'credential.created': (api, options) => throwawayKey(api, options, []),
  'credential.deleted': (api, options) => throwawayKey(api, options, []),
  'credential.updated': (api, options) => throwawayKey(api, options, ['credential.updated'], (pubkey) => api.updateCredential({ path: { pubkey }, body: { label: 'integrator trigger (renamed)' } })),
  'policy.created': (api, options) => policy(api, options, false),
  'policy.deleted': (api, options) => policy(api, options, true),
  'transaction.created': (api, options, type) => deposit(api, type, options, false),
  'transaction.status.changed': (api, options, type) => deposit(api, type, options, true),
  'user.created': (api, options) => createAccount(api, options),
  'user.updated': async (api, options) => {
    const created = await createAccount(api, setup(options));
    await api.updateUser({ body: withOverrides({ userId: created.userId, userInfo: { phone: '+14155550123' } }, options.overrides) });
    return { ...created, triggered: [...created.triggered, 'user.updated'] };
  },
  'user.verification_status.changed': (api, options) => verifiedAccount(api, options),
  'requirements.updated': async (api, options) => {
    // An account made without documents owes them; giving them changes its requirements.
    const { verificationDocuments, ...incomplete } = individualAccountBody();
    const created = await api.createIndividualAccount({ body: withOverrides(incomplete, options.overrides) });
    await api.updateUser({ body: { userId: created.userId, verificationDocuments } });
    return { triggered: ['user.created', 'account.created', 'user.updated', 'requirements.updated'], userId: created.userId, accountId: created.accountId };
  },
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
/** The types refused with a reason (every other type is made). */
export const REFUSED_TYPES = Object.keys(REFUSED).sort();

/** Runs the trigger of `type`; an unknown type is a usage error listing the known ones. */
export async function trigger(api: IntegratorClient, type: string, options: TriggerOptions): Promise<unknown> {
  const run = Object.hasOwn(TRIGGERS, type) ? TRIGGERS[type] : undefined;
  if (!run) throw new UsageError(`${options.command ?? 'integrator'} trigger: unknown type ${type}; known types: ${TRIGGER_TYPES.join(', ')}`);
  return run(api, options, type);
}

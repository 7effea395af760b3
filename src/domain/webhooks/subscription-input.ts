import type { SigningAlgorithm } from './signing-keys.js';
import { ApiError, invalidFields, type FieldError } from '../errors.js';
import { isSubscribableType } from '../events/catalogue.js';
import { checkEndpoint, systemResolver, type EndpointSafety, type Resolver, type SafetyRules } from './url-safety.js';

export interface WebhookEnvironment {
  rules: SafetyRules;
  resolve?: Resolver;
  /** A sandbox server: a refused URL's problem says how to allow local receivers (WEBHOOK_ALLOW_PRIVATE). */
  sandbox?: boolean;
}

export interface SubscriptionInput {
  name: string;
  url: string;
  /** Catalogue types, `<prefix>.*` or `*`; the text `*` alone means every type. */
  eventTypes: string[] | '*';
  httpHeaders?: Record<string, string>;
  enabled?: boolean;
  /** How deliveries are signed; ed25519 unless told (docs/webhooks.md#signatures). */
  algorithm?: SigningAlgorithm;
}

export type SubscriptionPatch = Partial<SubscriptionInput>;

/** The event types as stored: each one known (400 naming every unknown one), duplicates dropped. */
export function normalizeEventTypes(eventTypes: string[] | '*'): string[] {
  const list = eventTypes === '*' ? ['*'] : eventTypes;
  const errors: FieldError[] = [];
  list.forEach((t, i) => {
    if (!isSubscribableType(t)) {
      errors.push({ pointer: `/eventTypes/${i}`, code: 'unknown_event_type', detail: `${t} is not an event type (see docs/event-types.md), a prefix wildcard like user.* or *` });
    }
  });
  if (errors.length > 0) throw invalidFields(errors);
  return [...new Set(list)];
}

/** Parses and checks a URL (resolving its host outside any transaction); refuses it with 422 when unsafe. */
export async function safeEndpoint(url: string, env: WebhookEnvironment, now: Date): Promise<EndpointSafety> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidFields([{ pointer: '/url', code: 'invalid_format', detail: 'must be an absolute https URL' }], 'url is not an absolute URL');
  }
  const safety = await checkEndpoint(parsed, env.rules, now, env.resolve ?? systemResolver);
  if (!safety.allowed) {
    // A developer pointing a sandbox at http://localhost learns the switch that allows it, in the problem itself.
    const hint = env.sandbox && !env.rules.allowPrivate ? ' (a sandbox server started with WEBHOOK_ALLOW_PRIVATE=1 accepts http and private or loopback receivers)' : '';
    throw new ApiError('webhook_url_not_allowed', `The webhook URL is not allowed: ${safety.reason}${hint}`, {
      errors: [{ pointer: '/url', code: 'url_not_allowed', detail: safety.reason! }],
    });
  }
  return safety;
}

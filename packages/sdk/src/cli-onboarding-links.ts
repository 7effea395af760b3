// `integrator onboarding-links create|get|revoke`: hosted onboarding links (docs/onboarding-links.md) from a terminal.
// `create` prints the link with its `url`, the only time the url is shown: give it to the customer, nobody else.
import type { IntegratorClient } from './client.js';
import { UsageError } from './cli-trigger-base.js';

/** The options these commands read (cli.ts's parseArgs declares them). */
export interface LinkOptions {
  type?: string;
  email?: string;
  user?: string;
  'redirect-url'?: string;
  'expires-in'?: string;
}

export const LINK_USAGE = 'onboarding-links create --type individual|entity [--email ADDRESS] [--user USER_ID] [--redirect-url URL] [--expires-in 90m], get ID, revoke ID';

const UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600 };

/** `--expires-in`: seconds, or a number with s, m or h (`90m`, `1h`); the server checks the range (60 s to 24 h). */
export function expiresInSeconds(text: string, command: string): number {
  const m = /^(\d{1,6})([smh]?)$/.exec(text.trim());
  if (!m) throw new UsageError(`${command} onboarding-links create: --expires-in takes seconds or a number with s, m or h (3600, 90m, 1h), not ${JSON.stringify(text)}`);
  return Number(m[1]) * UNITS[m[2]!]!;
}

/** Runs `onboarding-links SUB [ID]`; what it prints is the answer (create's with its url, get's and revoke's the link). */
export async function onboardingLinks(api: IntegratorClient, sub: string | undefined, id: string | undefined, options: LinkOptions, command: string): Promise<unknown> {
  if (sub === 'create') {
    const type = options.type;
    if (type !== 'individual' && type !== 'entity') throw new UsageError(`${command} onboarding-links create needs --type individual or --type entity`);
    return api.createOnboardingLink({
      body: {
        type,
        ...(options.user !== undefined ? { userId: options.user } : {}),
        ...(options.email !== undefined ? { email: options.email } : {}),
        ...(options['redirect-url'] !== undefined ? { redirectUrl: options['redirect-url'] } : {}),
        ...(options['expires-in'] !== undefined ? { expiresInSeconds: expiresInSeconds(options['expires-in'], command) } : {}),
      },
    });
  }
  if (sub === 'get' || sub === 'revoke') {
    if (!id) throw new UsageError(`${command} onboarding-links ${sub} ID (the onboardingLinkId create printed)`);
    const path = { onboardingLinkId: id };
    // DELETE answers 204: the link is read back, so its status (revoked) is what is printed.
    if (sub === 'revoke') await api.revokeOnboardingLink({ path });
    return api.getOnboardingLink({ path });
  }
  throw new UsageError(`${command} ${LINK_USAGE}`);
}

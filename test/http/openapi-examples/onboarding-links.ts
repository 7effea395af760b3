import { randomUUID } from 'node:crypto';
import type { ApiResponse } from '../../harness/client.js';
import type { SeededIntegrator, TestServer } from '../../harness/server.js';

/** What these examples need of the OpenAPI suite's context. */
interface Ctx {
  server: TestServer;
  acme: SeededIntegrator;
}

/** The onboarding-link operations aimed at another integrator's link and user (the 401/403/404 sweep). */
export const ONBOARDING_LINK_ADDRESSED: Record<string, (c: Ctx, r: { userId: string; onboardingLinkId: string }) => Promise<ApiResponse>> = {
  createOnboardingLink: (c, r) => c.acme.client.post('/v1/onboarding-links', { type: 'individual', userId: r.userId }),
  getOnboardingLink: (c, r) => c.acme.client.get(`/v1/onboarding-links/${r.onboardingLinkId}`),
  revokeOnboardingLink: (c, r) => c.acme.client.delete(`/v1/onboarding-links/${r.onboardingLinkId}`),
  simulateOnboardingLink: (c, r) => c.acme.client.post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: r.onboardingLinkId, outcome: 'opened' }),
};

/** Each call a second after the last: the same signed request twice within a second is a replay. */
async function later(server: TestServer, send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  server.clock.advance(1000);
  return send();
}

/** Real calls of the onboarding-link operations: successes, 400s, 404s and 409s. */
export const ONBOARDING_LINK_EXAMPLES: Record<string, (c: Ctx) => Promise<ApiResponse[]>> = {
  createOnboardingLink: async ({ server, acme }) => [
    await later(server, () => acme.client.post('/v1/onboarding-links', { type: 'individual', email: 'new.customer@example.com', redirectUrl: 'https://app.example.com/done', expiresInSeconds: 900 })),
    await later(server, () => acme.client.post('/v1/onboarding-links', { type: 'entity' })),
    await later(server, () => acme.client.post('/v1/onboarding-links', { type: 'individual', expiresInSeconds: 10 })),
    await later(server, () => acme.client.post('/v1/onboarding-links', { type: 'individual', redirectUrl: 'http://app.example.com/done' })),
    await later(server, () => acme.client.post('/v1/onboarding-links', { type: 'individual', userId: randomUUID() })),
  ],
  getOnboardingLink: async ({ server, acme }) => {
    const made = await later(server, () => acme.client.post('/v1/onboarding-links', { type: 'individual' }));
    return [await later(server, () => acme.client.get(`/v1/onboarding-links/${made.body.onboardingLinkId}`)), await later(server, () => acme.client.get(`/v1/onboarding-links/${randomUUID()}`))];
  },
  revokeOnboardingLink: async ({ server, acme }) => {
    const made = await later(server, () => acme.client.post('/v1/onboarding-links', { type: 'entity' }));
    const path = `/v1/onboarding-links/${made.body.onboardingLinkId}`;
    return [await later(server, () => acme.client.delete(path)), await later(server, () => acme.client.delete(path))];
  },
  simulateOnboardingLink: async ({ server, acme }) => {
    const made = await later(server, () => acme.client.post('/v1/onboarding-links', { type: 'individual' }));
    const body = { onboardingLinkId: made.body.onboardingLinkId };
    return [
      await later(server, () => acme.client.post('/v1/sandbox/simulate-onboarding-link', { ...body, outcome: 'opened' })),
      await later(server, () => acme.client.post('/v1/sandbox/simulate-onboarding-link', { ...body, outcome: 'completed' })),
      await later(server, () => acme.client.post('/v1/sandbox/simulate-onboarding-link', { onboardingLinkId: randomUUID(), outcome: 'opened' })),
    ];
  },
};

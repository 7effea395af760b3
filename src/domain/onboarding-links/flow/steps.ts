import type { OnboardingLinkRow } from '../../../db/repositories/onboarding-links.js';
import type { FlowLink } from './flow-link.js';
import { entitySteps } from './entity-steps.js';

// Which steps a link still owes, in order (docs/onboarding-links.md#the-hosted-flow). A step is owed while what it
// collects is missing, so a step saved once is skipped from then on, through this link or a fresh one for the same
// user, and a link made for an existing user shows only what that user's requirements list.
//
// How to add a step (the entity flow adds its own beside these):
// 1. Domain: a FlowStep here (its name, the link type it belongs to, and `owed`), listed in FLOW_STEPS in its place;
//    its save function in its own file of this folder (e.g. entity-details.ts), which locks the link
//    (withLiveLink in save.ts), calls the same domain function as the API, and throws the domain's errors.
// 2. HTTP: a StepPage in src/http/pages/onboarding/ (its render and its save), listed in STEP_PAGES
//    (src/http/pages/onboarding/step-pages.ts) under the same name. The routes, the token check, the body parsers,
//    the 422 page with every error, the 303 to the next owed step and the completion are shared.

export interface FlowStep {
  /** Its URL segment: /onboarding/<token>/<name>. */
  name: string;
  type: OnboardingLinkRow['type'];
  /** True while the link still owes it. */
  owed(link: FlowLink): boolean;
}

const due = (link: FlowLink, ...names: string[]) => (link.requirements ? names.some((n) => link.requirements!.currentlyDue.includes(n)) : true);

/** An individual's steps (src/http/pages/onboarding/individual-*.ts). */
export const INDIVIDUAL_STEPS: FlowStep[] = [
  // A new customer accepts the terms first; a user made through the API accepted them with its integrator.
  { name: 'terms', type: 'individual', owed: (link) => !link.user && link.row.termsAcceptedAt === null },
  { name: 'details', type: 'individual', owed: (link) => due(link, 'birthDate', 'nationality', 'residentialAddress') },
  { name: 'documents', type: 'individual', owed: (link) => due(link, 'document.identity', 'document.proofOfAddress') },
  // A user whose terms this flow recorded (termsVersion) was made by it, and owes a passkey until it has one; a user
  // made through the API is its integrator's to give passkeys to.
  { name: 'passkey', type: 'individual', owed: (link) => !link.user || (link.user.termsVersion !== null && link.passkeys === 0) },
];

/** Every step, in order within its link type. */
export const FLOW_STEPS: FlowStep[] = [...INDIVIDUAL_STEPS, ...entitySteps(INDIVIDUAL_STEPS)];

/** The steps the link still owes, in order. */
export function owedSteps(link: FlowLink): FlowStep[] {
  return FLOW_STEPS.filter((step) => step.type === link.row.type && step.owed(link));
}

/** The step a link's type has by that name (undefined: no such step, a 404). */
export function stepNamed(type: OnboardingLinkRow['type'], name: string): FlowStep | undefined {
  return FLOW_STEPS.find((step) => step.type === type && step.name === name);
}

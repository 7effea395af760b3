import { owesCompany, owesDocuments, owesPersons } from './entity-state.js';
import type { FlowStep } from './steps.js';

// An entity link's steps, in order (docs/onboarding-links.md#the-entity-flow): the individual flow's terms, the
// representative's own details, documents and passkey (the same rules, on the representative's user: owed while its
// requirements list them, so it can be verified and act for the company), around the company's details and
// its four document groups (owed while the entity's requirements list them) and its associated persons (owed until
// the list is confirmed: entity-state.ts). steps.ts passes its individual steps in (no import cycle).

export function entitySteps(individual: readonly FlowStep[]): FlowStep[] {
  const reused = (name: string): FlowStep => ({ ...individual.find((s) => s.name === name)!, type: 'entity' });
  return [
    reused('terms'),
    reused('details'),
    reused('documents'),
    { name: 'company', type: 'entity', owed: (link) => owesCompany(link.entity) },
    { name: 'company-documents', type: 'entity', owed: (link) => owesDocuments(link.entity) },
    // Last of the data: the list of persons is confirmed with "continue", which requests verification.
    { name: 'persons', type: 'entity', owed: (link) => owesPersons(link.entity) },
    reused('passkey'),
  ];
}

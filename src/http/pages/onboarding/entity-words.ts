import { personDue, personsDue } from '../../../domain/onboarding-links/flow/entity-state.js';
import type { FlowLink } from '../../../domain/onboarding-links/flow/flow-link.js';
import type { FlowStep } from '../../../domain/onboarding-links/flow/steps.js';
import type { UserInfo } from '../../../domain/onboarding/types.js';
import { REPRESENTATIVE_REQUIREMENT } from '../../../domain/requirements/requirements.js';

// What an entity link still asks, in words, for its first page: by its owed steps, each as specific as the company's
// requirements (or, for the representative's own details and documents, their user's) allow.

const GROUPS: Record<string, string> = {
  'document.companyDetails': 'the company’s registration document',
  'document.ownershipStructure': 'a document showing who owns the company',
  'document.sourceOfFunds': 'a document showing the company’s source of funds',
  'document.proofOfAddress': 'a proof of the company’s address',
};
const PERSON: Record<string, string> = {
  birthDate: 'date of birth',
  nationality: 'nationality',
  residentialAddress: 'home address',
  'document.identity': 'identity document',
  'document.proofOfAddress': 'proof of address',
};

/** The representative's own documents (their user's requirements). */
const OWN: Record<string, string> = { 'document.identity': 'identity document', 'document.proofOfAddress': 'proof of address' };

function personsWords(link: FlowLink): string[] {
  const state = link.entity;
  if (!state) return ['the company’s representative and everyone owning more than 25 % of it, with their identity documents'];
  const words = personsDue(state).includes(REPRESENTATIVE_REQUIREMENT) ? ['the company’s representative, with their identity document'] : [];
  for (const p of state.persons) {
    const due = personDue(state, p.row.id).map((n) => PERSON[n] ?? n);
    const info = p.row.userInfo as UserInfo;
    if (due.length > 0) words.push(`for ${info.firstName} ${info.lastName}: ${due.join(', ')}`);
  }
  return words.length > 0 ? words : ['a last look at the company’s people, to send everything for review'];
}

export function entityOwedWords(link: FlowLink, steps: readonly FlowStep[]): string[] {
  return steps.flatMap((step) => {
    switch (step.name) {
      case 'terms':
        return ['your acceptance of the service terms'];
      case 'details':
        return ['your own details, as the company’s representative'];
      case 'documents':
        return [link.requirements ? `your own ${link.requirements.currentlyDue.filter((n) => OWN[n]).map((n) => OWN[n]!).join(' and ')}` : 'your own identity document and proof of address'];
      case 'company':
        return [link.entity ? 'the rest of your company’s details' : 'your company’s details'];
      case 'company-documents':
        return link.entity ? link.entity.requirements.currentlyDue.filter((n) => GROUPS[n]).map((n) => GROUPS[n]!) : ['your company’s documents'];
      case 'persons':
        return personsWords(link);
      case 'passkey':
        return ['a passkey on this device, to approve your transactions'];
      default:
        return [step.name];
    }
  });
}

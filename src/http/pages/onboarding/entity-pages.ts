import { COMPANY_PAGE } from './entity-company.js';
import { COMPANY_DOCUMENTS_PAGE } from './entity-documents.js';
import { PERSONS_PAGE } from './entity-persons.js';
import { INDIVIDUAL_PAGES } from './individual-pages.js';
import type { StepPage } from './step-pages.js';

/** An entity's step pages, by the names of ENTITY_STEPS (src/domain/onboarding-links/flow/entity-steps.ts). */
export const ENTITY_PAGES: Record<string, StepPage> = {
  terms: INDIVIDUAL_PAGES.terms!,
  details: INDIVIDUAL_PAGES.details!,
  documents: INDIVIDUAL_PAGES.documents!,
  company: COMPANY_PAGE,
  'company-documents': COMPANY_DOCUMENTS_PAGE,
  persons: PERSONS_PAGE,
  passkey: INDIVIDUAL_PAGES.passkey!,
};

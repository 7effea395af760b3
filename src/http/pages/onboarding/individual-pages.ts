import { DETAILS_PAGE } from './individual-details.js';
import { DOCUMENTS_PAGE } from './individual-documents.js';
import { PASSKEY_PAGE } from './individual-passkey.js';
import type { StepPage } from './step-pages.js';
import { TERMS_PAGE } from './individual-terms.js';

/** An individual's step pages, by the names of INDIVIDUAL_STEPS (src/domain/onboarding-links/flow/steps.ts). */
export const INDIVIDUAL_PAGES: Record<string, StepPage> = {
  terms: TERMS_PAGE,
  details: DETAILS_PAGE,
  documents: DOCUMENTS_PAGE,
  passkey: PASSKEY_PAGE,
};

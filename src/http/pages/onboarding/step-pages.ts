import type { FieldError } from '../../../domain/errors.js';
import type { FlowContext, FlowLink } from '../../../domain/onboarding-links/flow/flow-link.js';
import type { SaveOutcome } from '../../../domain/onboarding-links/flow/save.js';
import type { FieldProblem, FormState } from './html.js';
import { ENTITY_PAGES } from './entity-pages.js';
import { INDIVIDUAL_PAGES } from './individual-pages.js';

// The flow's step pages by link type and name (docs/onboarding-links.md#the-hosted-flow). Each renders its form and
// saves a submission; routes.ts does the rest for every step: the token before the body, the body parsers, unknown
// fields refused, a domain error re-rendered as a 422 form, the 303 to the next owed step, the final page.
//
// How to add a step: a FlowStep in src/domain/onboarding-links/flow/steps.ts, then a StepPage here, in its own
// file (e.g. entity-details.ts), listed under its link type below with the same name.

/** A submitted form: its text fields (one value each) and, for a multipart step, its files. */
export interface StepBody {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

export interface UploadedFile {
  filename: string;
  /** The type the browser declared; the domain checks the bytes (data-url.ts). */
  mediaType: string;
  bytes: Buffer;
}

/** What a page renders with: the link as it is now, the query (e.g. ?country=), the passkey options. */
export interface StepView {
  ctx: FlowContext;
  link: FlowLink;
  query: Record<string, string>;
  /** The WebAuthn relying party of the request's host (the passkey step; undefined where the host is under none). */
  rpId: string | undefined;
}

export interface StepPage {
  /** urlencoded (the default) or multipart (files). */
  body: 'urlencoded' | 'multipart';
  /** The text fields and files a submission may carry: anything else is refused (400) before saving. */
  accepts(link: FlowLink): { fields: readonly string[]; files?: readonly string[] };
  /** The whole HTML page, with the values and errors of `form`. */
  render(view: StepView, form: FormState): string;
  /** Checks and saves a submission (withLiveLink); a domain ApiError with field errors becomes the 422 form. */
  save(ctx: FlowContext, token: string, body: StepBody, link: FlowLink): Promise<SaveOutcome>;
  /** A domain error's field errors as the form's problems (by input name). */
  problems(errors: readonly FieldError[], body: StepBody, link: FlowLink): FieldProblem[];
}

/** Every step's page: B's entity pages join under `entity`. */
export const STEP_PAGES: Record<string, Record<string, StepPage>> = {
  individual: INDIVIDUAL_PAGES,
  entity: ENTITY_PAGES,
};

import type { Tx } from '../../../db/database.js';
import { invalidFields, type FieldError } from '../../../domain/errors.js';
import type { FlowContext, FlowLink } from '../../../domain/onboarding-links/flow/flow-link.js';
import { withLiveLink } from '../../../domain/onboarding-links/flow/save.js';
import type { SubmittedDocument } from '../../../domain/onboarding/types.js';
import { problemsOf } from './html.js';
import type { StepBody, StepPage, UploadedFile } from './step-pages.js';

// A step of uploads (a customer's documents, a company's): its files read as the API's documents, saved through the
// API's own function, and a domain error about the i-th document shown on the input that file came from.

/** A submission's uploads as the API's documents, the input each came from (in order), and what is missing. */
export interface Uploads {
  documents: SubmittedDocument[];
  names: string[];
  errors: FieldError[];
}

/** An uploaded file as the API's data URL: the domain checks its type, size and bytes (data-url.ts). */
export const dataUrlOf = (upload: UploadedFile) => `data:${upload.mediaType};base64,${upload.bytes.toString('base64')}`;

export interface UploadStep {
  accepts: StepPage['accepts'];
  render: StepPage['render'];
  /** The submission read; anything missing is refused (422) before anything is saved. */
  uploadsOf(link: FlowLink, body: StepBody): Uploads;
  /** The save, in withLiveLink's transaction. */
  save(ctx: FlowContext, tx: Tx, link: FlowLink, documents: SubmittedDocument[]): Promise<void>;
  /** Where the API's errors list the documents: `/verificationDocuments`, `/entityDocuments`. */
  list: string;
  /** The names of the inputs the page shows the link (an error on no input goes to the summary alone). */
  inputs(link: FlowLink): string[];
  /** The form's own pointers, over the uploads' (a group's inputs by its requirement). */
  pointers?: Record<string, string>;
}

/** Where the i-th upload's errors point (`<list>/<i>/document`, `/issuingCountry`): the input it came from. */
function uploadPointers(list: string, names: readonly string[]): Record<string, string> {
  const byPointer: Record<string, string> = {};
  names.forEach((name, i) => {
    byPointer[`${list}/${i}/document`] = name;
    byPointer[`${list}/${i}/issuingCountry`] = 'issuingCountry';
  });
  return byPointer;
}

/** The StepPage of an upload step: multipart, the uploads checked and then saved, errors on their inputs. */
export function uploadStepPage(step: UploadStep): StepPage {
  return {
    body: 'multipart',
    accepts: step.accepts,
    render: step.render,
    async save(ctx, token, body, link) {
      const { documents, errors } = step.uploadsOf(link, body);
      if (errors.length > 0) throw invalidFields(errors);
      return withLiveLink(ctx, token, (tx, current) => step.save(ctx, tx, current, documents));
    },
    problems: (errors, body, link) => problemsOf(errors, [''], new Set(step.inputs(link)), { ...uploadPointers(step.list, step.uploadsOf(link, body).names), ...step.pointers }),
  };
}

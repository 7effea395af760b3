import type { FastifyRequest } from 'fastify';
import { MAX_DOCUMENT_BYTES } from '../../../domain/onboarding/documents/data-url.js';
import type { FlowLink } from '../../../domain/onboarding-links/flow/flow-link.js';
import type { StepBody, StepPage } from './step-pages.js';

// A step's submitted form, read as the step declares (urlencoded by @fastify/formbody, files by @fastify/multipart,
// both registered for the onboarding routes only), and checked before anything is saved: one value per name, only
// the names the step accepts, each file within the API's document limit. Anything else is a FormRefused (a 4xx page).

/** A urlencoded form's largest body (the longest is the passkey's registration). */
export const FORM_BODY_LIMIT = 64 * 1024;
/** The most files a step takes (a passport or both sides of an id, and a proof of address). */
export const MAX_FILES = 4;
/** A multipart body's bound: its files, and room for its text fields and part headers. */
export const MULTIPART_BODY_LIMIT = MAX_FILES * MAX_DOCUMENT_BYTES + FORM_BODY_LIMIT;

export const MULTIPART_LIMITS = { fileSize: MAX_DOCUMENT_BYTES, files: MAX_FILES, fields: 20, fieldSize: 1024, fieldNameSize: 100, parts: 24, headerPairs: 20 };

export class FormRefused extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const TOO_LARGE = 'Each file may be at most 10 MB, and a form may carry at most 4 files.';

/**
 * Before a byte is read: a urlencoded form over FORM_BODY_LIMIT, or a multipart one over MULTIPART_BODY_LIMIT, is
 * refused from its declared length (a form without a length, chunked, is refused too: browsers always send one).
 */
export async function sizeFirst(request: FastifyRequest, _reply: unknown, payload: unknown) {
  const length = request.headers['content-length'];
  const limit = request.isMultipart() ? MULTIPART_BODY_LIMIT : FORM_BODY_LIMIT;
  if (length === undefined ? request.headers['transfer-encoding'] !== undefined && !request.isMultipart() : Number(length) > limit) throw new FormRefused(413, TOO_LARGE);
  return payload;
}

const mediaType = (request: FastifyRequest) => (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** Reads and checks the body of a step's POST. */
export async function readStepBody(request: FastifyRequest, page: StepPage, link: FlowLink): Promise<StepBody> {
  const accepts = page.accepts(link);
  const fields: Record<string, string> = {};
  const files: StepBody['files'] = {};
  const take = (name: string, value: unknown) => {
    if (typeof value !== 'string') throw new FormRefused(400, 'Each field of the form must be given once, as text.');
    if (!accepts.fields.includes(name)) throw new FormRefused(400, 'The form carried a field this step does not have.');
    if (Object.hasOwn(fields, name)) throw new FormRefused(400, 'The form carried a field twice.');
    fields[name] = value;
  };
  if (page.body === 'urlencoded') {
    if (mediaType(request) !== 'application/x-www-form-urlencoded') throw new FormRefused(415, 'This step takes a form (application/x-www-form-urlencoded).');
    const body = request.body;
    if (typeof body !== 'object' || body === null) throw new FormRefused(400, 'The form was empty or unreadable.');
    for (const [name, value] of Object.entries(body)) take(name, value);
    return { fields, files };
  }
  if (!request.isMultipart()) throw new FormRefused(415, 'This step takes a form with files (multipart/form-data).');
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        take(part.fieldname, part.value);
        continue;
      }
      const bytes = await part.toBuffer();
      // A file input left empty is sent as a part with no name and no bytes.
      if (part.filename === '' && bytes.length === 0) continue;
      if (!(accepts.files ?? []).includes(part.fieldname)) throw new FormRefused(400, 'The form carried a file this step does not take.');
      if (Object.hasOwn(files, part.fieldname)) throw new FormRefused(400, 'The form carried a file twice.');
      files[part.fieldname] = { filename: part.filename, mediaType: part.mimetype.toLowerCase(), bytes };
    }
  } catch (err) {
    if (err instanceof FormRefused) throw err;
    const status = (err as { statusCode?: number }).statusCode;
    if (status === 413) throw new FormRefused(413, TOO_LARGE);
    throw new FormRefused(400, 'The form’s files could not be read.');
  }
  return { fields, files };
}

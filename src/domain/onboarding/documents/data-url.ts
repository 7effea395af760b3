import type { FieldError } from '../../errors.js';
import { fieldError } from '../validation/fields.js';

/** Largest accepted document after base64 decoding. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** Media types a verification document may have: scans and photos, or a PDF. */
export const ALLOWED_MEDIA_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type DocumentMediaType = (typeof ALLOWED_MEDIA_TYPES)[number];

/** The first bytes every file of each type starts with; a declared type must match the content. */
const SIGNATURES: Record<DocumentMediaType, Buffer> = {
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'application/pdf': Buffer.from('%PDF-', 'latin1'),
};

// Exactly `data:<type>;base64,` — no charset or name parameters. Scheme and the base64 token are
// matched case-insensitively (RFC 2397 / RFC 3986 say they are), the type is lower-cased before lookup.
const PREFIX = /^data:([^;,]{0,100});base64,/i;

export type ParsedDocument = { ok: true; mediaType: DocumentMediaType; bytes: Buffer } | { ok: false; errors: FieldError[] };

function fail(pointer: string, code: string, detail: string): ParsedDocument {
  return { ok: false, errors: [fieldError(pointer, code, detail)] };
}

/**
 * Parses a submitted document, `data:<media_type>;base64,<data>`. Codes: `required`, `invalid_type`,
 * `invalid_data_url` (not that form), `unsupported_media_type`, `too_large` (decoded size over
 * MAX_DOCUMENT_BYTES, computed from the text length before anything is decoded), `invalid_base64` (not
 * canonical standard base64: padded, no whitespace, no url-safe characters, zero trailing bits),
 * `empty_document`, `content_type_mismatch` (magic bytes disagree with the declared type).
 */
export function parseDocumentDataUrl(value: unknown, pointer: string): ParsedDocument {
  if (value === undefined || value === null) return fail(pointer, 'required', 'is required');
  if (typeof value !== 'string') return fail(pointer, 'invalid_type', 'must be a string');
  const prefix = PREFIX.exec(value.slice(0, 120));
  if (prefix === null) return fail(pointer, 'invalid_data_url', 'must be a data URL of the form data:<media type>;base64,<data>');
  const declared = (prefix[1] ?? '').toLowerCase();
  const mediaType = ALLOWED_MEDIA_TYPES.find((t) => t === declared);
  if (mediaType === undefined) return fail(pointer, 'unsupported_media_type', `must have media type ${ALLOWED_MEDIA_TYPES.join(', ')}`);

  const data = value.slice(prefix[0].length);
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  if (Math.floor((data.length * 3) / 4) - padding > MAX_DOCUMENT_BYTES) {
    return fail(pointer, 'too_large', `must not exceed ${MAX_DOCUMENT_BYTES} bytes (10 MiB) once decoded`);
  }
  if (data.length === 0) return fail(pointer, 'empty_document', 'must not be empty');
  const notBase64 = (): ParsedDocument => fail(pointer, 'invalid_base64', 'must be standard base64 with correct padding and no whitespace');
  if (data.length % 4 !== 0) return notBase64();
  // Node's decoder skips anything it does not understand, so canonical form is proven by re-encoding:
  // only a canonical string survives the round trip unchanged. The buffer is bounded by the check above.
  const bytes = Buffer.from(data, 'base64');
  if (bytes.toString('base64') !== data) return notBase64();
  const signature = SIGNATURES[mediaType];
  if (bytes.length < signature.length || !bytes.subarray(0, signature.length).equals(signature)) {
    return fail(pointer, 'content_type_mismatch', `content is not a ${mediaType} file`);
  }
  return { ok: true, mediaType, bytes };
}

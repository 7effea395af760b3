import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ALLOWED_MEDIA_TYPES, MAX_DOCUMENT_BYTES, parseDocumentDataUrl, type DocumentMediaType } from '../../../src/domain/onboarding/documents/index.js';

const P = '/verificationDocuments/0/document';
const MAGIC: Record<DocumentMediaType, Buffer> = {
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'application/pdf': Buffer.from('%PDF-1.7\n', 'latin1'),
};
/** The file signatures the parser must insist on; MAGIC above are realistic file starts that include them. */
const SIGNATURE: Record<DocumentMediaType, Buffer> = {
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'application/pdf': Buffer.from('%PDF-', 'latin1'),
};
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

function assertFails(value: unknown, code: string): void {
  const result = parseDocumentDataUrl(value, P);
  assert.equal(result.ok, false, `expected ${code}`);
  if (result.ok) return;
  assert.equal(result.errors.length, 1);
  assert.deepEqual({ pointer: result.errors[0]!.pointer, code: result.errors[0]!.code, in: result.errors[0]!.in }, { pointer: P, code, in: 'body' });
}

// One 10 MiB PDF-looking buffer for the size-edge tests, built on first use and reused.
let big: Buffer | undefined;
const tenMiB = (): Buffer => {
  if (big === undefined) {
    big = Buffer.alloc(MAX_DOCUMENT_BYTES, 0x20);
    MAGIC['application/pdf'].copy(big);
  }
  return big;
};

describe('parseDocumentDataUrl', () => {
  it('parses each allowed type, with the media type matched case-insensitively', () => {
    for (const type of ALLOWED_MEDIA_TYPES) {
      const bytes = Buffer.concat([MAGIC[type], Buffer.from('rest of the file')]);
      const result = parseDocumentDataUrl(dataUrl(type, bytes), P);
      assert.ok(result.ok);
      assert.equal(result.mediaType, type);
      assert.deepEqual(result.bytes, bytes);
    }
    const upper = parseDocumentDataUrl(dataUrl('IMAGE/PNG', MAGIC['image/png']), P);
    assert.ok(upper.ok && upper.mediaType === 'image/png');
  });

  it('accepts only exactly data:<type>;base64,', () => {
    const pdf = MAGIC['application/pdf'].toString('base64');
    for (const bad of [`data:application/pdf,${pdf}`, `data:application/pdf;name=a.pdf;base64,${pdf}`, `data:application/pdf;charset=utf-8;base64,${pdf}`, pdf, `https://example.com/a.pdf`, `data:application/pdf;base64${pdf}`, ` data:application/pdf;base64,${pdf}`]) {
      assertFails(bad, 'invalid_data_url');
    }
    assertFails(42, 'invalid_type');
    assertFails(null, 'required');
  });

  it('rejects media types outside the allowed list', () => {
    for (const type of ['image/gif', 'image/svg+xml', 'text/plain', 'application/octet-stream', '', 'image/jpg']) {
      assertFails(dataUrl(type, MAGIC['image/jpeg']), 'unsupported_media_type');
    }
  });

  it('requires canonical standard base64', () => {
    const png = Buffer.concat([MAGIC['image/png'], Buffer.from([0xfb, 0xff, 0xfe])]);
    const text = png.toString('base64');
    // The character before the padding carries unused low bits, zero in canonical base64; set one.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const last = text.indexOf('=') - 1;
    const dirtyBits = text.slice(0, last) + alphabet[alphabet.indexOf(text[last]!) | 1] + text.slice(last + 1);
    assert.notEqual(dirtyBits, text);
    assert.deepEqual(Buffer.from(dirtyBits, 'base64'), png); // Node itself would accept it
    for (const bad of [text.replace(/=+$/, ''), `${text.slice(0, 8)}\n${text.slice(8)}`, `${text.slice(0, 8)} ${text.slice(8)}`, png.toString('base64url'), `${text}=`, dirtyBits]) {
      assertFails(`data:image/png;base64,${bad}`, 'invalid_base64');
    }
  });

  it('rejects empty content and content that does not match the declared type', () => {
    assertFails('data:application/pdf;base64,', 'empty_document');
    assertFails(dataUrl('application/pdf', MAGIC['image/png']), 'content_type_mismatch');
    assertFails(dataUrl('image/png', MAGIC['image/png'].subarray(0, 7)), 'content_type_mismatch');
    assertFails(dataUrl('image/jpeg', Buffer.from('%PDF-1.4')), 'content_type_mismatch');
  });

  it('accepts exactly 10 MiB and rejects one byte more, judged before decoding', () => {
    const ok = parseDocumentDataUrl(dataUrl('application/pdf', tenMiB()), P);
    assert.ok(ok.ok && ok.bytes.length === MAX_DOCUMENT_BYTES);
    assertFails(dataUrl('application/pdf', Buffer.concat([tenMiB(), Buffer.from('x')])), 'too_large');
    // Far too large and not even base64: the size verdict comes first, without decoding anything.
    assertFails(`data:application/pdf;base64,${'*'.repeat(20 * 1024 * 1024)}`, 'too_large');
  });

  it('property: sizes around the limit are judged by decoded length', () => {
    fc.assert(
      fc.property(fc.integer({ min: -3, max: 3 }), (delta) => {
        const bytes = delta <= 0 ? tenMiB().subarray(0, MAX_DOCUMENT_BYTES + delta) : Buffer.concat([tenMiB(), Buffer.alloc(delta)]);
        const result = parseDocumentDataUrl(dataUrl('application/pdf', bytes), P);
        assert.equal(result.ok, delta <= 0);
        if (!result.ok) assert.equal(result.errors[0]!.code, 'too_large');
      }),
      { numRuns: 7 },
    );
  });

  it('property: random bytes after the right magic round-trip; any other start fails', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALLOWED_MEDIA_TYPES), fc.uint8Array({ maxLength: 256 }), (type, tail) => {
        const bytes = Buffer.concat([MAGIC[type], tail]);
        const result = parseDocumentDataUrl(dataUrl(type, bytes), P);
        assert.ok(result.ok);
        assert.equal(result.mediaType, type);
        assert.deepEqual(result.bytes, bytes);
      }),
      { numRuns: 300 },
    );
    // A signature with one byte changed, or plain random bytes: valid exactly when the signature is intact.
    fc.assert(
      fc.property(fc.constantFrom(...ALLOWED_MEDIA_TYPES), fc.uint8Array({ maxLength: 64 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (type, tail, at, delta) => {
        const signature = Buffer.from(SIGNATURE[type]);
        const i = at % signature.length;
        signature[i] = (signature[i]! + delta) % 256;
        assertFails(dataUrl(type, Buffer.concat([signature, tail])), 'content_type_mismatch');
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.constantFrom(...ALLOWED_MEDIA_TYPES), fc.uint8Array({ minLength: 1, maxLength: 16 }), (type, bytes) => {
        const buffer = Buffer.from(bytes);
        const result = parseDocumentDataUrl(dataUrl(type, buffer), P);
        assert.equal(result.ok, buffer.subarray(0, SIGNATURE[type].length).equals(SIGNATURE[type]));
      }),
      { numRuns: 300 },
    );
  });
});

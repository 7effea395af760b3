import { Type } from 'typebox';
import { invalidFields } from '../../domain/errors.js';
import { FORMATS, patterned } from '../schemas/patterns.js';

/**
 * The keyset cursor of the admin lists ordered by id (UUIDv7, creation order): the last row's id, its 16 bytes in
 * base64url, opaque to callers. Only what encodeCursor wrote reads back; anything else is a 400 naming startingAfter.
 */
export const encodeCursor = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex').toString('base64url');

export function decodeCursor(cursor: string): string {
  const hex = Buffer.from(cursor, 'base64url').toString('hex');
  const id = hex.length === 32 ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : '';
  if (!id || encodeCursor(id) !== cursor) {
    throw invalidFields([{ pointer: '/startingAfter', code: 'invalid_format', detail: 'startingAfter is not a cursor from this list', in: 'query' }], 'Invalid cursor');
  }
  return id;
}

/** The query members every such list takes. */
export const pageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  startingAfter: Type.Optional(patterned(FORMATS.cursor, { minLength: 22, maxLength: 22, description: 'The nextCursor of the previous page' })),
};

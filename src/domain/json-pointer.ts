/**
 * RFC 6901 JSON pointers, the `pointer` of every field error: one escaping for the whole server (the body
 * validators, Ajv's errors re-pointed in http/validation.ts, webhook header names), so a field named `a/b` or `~x`
 * is pointed at the same way wherever its error comes from.
 */

/** A reference token escaped: `~` as `~0`, then `/` as `~1` (in that order, or `/` would come back as `~01`). */
export const escapePointerToken = (token: string | number): string => String(token).replace(/~/g, '~0').replace(/\//g, '~1');

/** The token back: `~1` to `/` first, then `~0` to `~` (RFC 6901 §4). */
export const unescapePointerToken = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** Appends reference tokens to an already-escaped base pointer (`''` is the whole document). */
export function joinPointer(base: string, ...tokens: readonly (string | number)[]): string {
  return base + tokens.map((token) => `/${escapePointerToken(token)}`).join('');
}

/** The token of an `Authorization: Bearer <token>` header (RFC 6750), or undefined for anything else. */
export function bearerToken(header: string | undefined): string | undefined {
  return typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}

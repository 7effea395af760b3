/** Thrown by the WebAuthn parsers for input that is not what the format says; callers turn it into a code. */
export class MalformedWebAuthnData extends Error {}

export function malformed(detail: string): never {
  throw new MalformedWebAuthnData(detail);
}

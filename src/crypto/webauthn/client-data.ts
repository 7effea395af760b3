import { originAllowed } from './relying-party.js';

/** The members of CollectedClientData (WebAuthn §5.8.1) that the checks read. */
export interface ClientData {
  type: unknown;
  challenge: unknown;
  origin: unknown;
  crossOrigin: unknown;
}

/** clientDataJSON as the browser wrote it: UTF-8 JSON of an object; null otherwise. */
export function parseClientData(bytes: Uint8Array): ClientData | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const member = (key: string) => (Object.hasOwn(parsed, key) ? (parsed as Record<string, unknown>)[key] : undefined);
  return { type: member('type'), challenge: member('challenge'), origin: member('origin'), crossOrigin: member('crossOrigin') };
}

/**
 * Why the ceremony's origin is not acceptable, or null. A ceremony in a cross-origin iframe
 * (`crossOrigin: true`) is refused: the allowed origins say where a passkey may be used, and a frame
 * embedded by some other top-level site is not such a place.
 */
export function originProblem(clientData: ClientData, allowed: readonly string[]): string | null {
  if (typeof clientData.origin !== 'string' || !originAllowed(clientData.origin, allowed)) return 'has an origin that is not among the allowed origins';
  if (clientData.crossOrigin === true) return 'comes from a cross-origin frame';
  return null;
}

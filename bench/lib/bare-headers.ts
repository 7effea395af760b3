import type { IncomingMessage } from 'node:http';

/** A request header's first value, as the bare servers read the signing headers (no framework to do it). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import type { LogFormat } from './config/types.js';

/**
 * LOG_FORMAT (docs/deployment.md#logs): JSON lines for machines, one readable line per entry for a person at a
 * terminal. Unset (`auto`), the choice follows stdout: a terminal gets readable lines, a pipe or a file JSON, so a
 * log collector, `| tee` or the tests' harness (which parses every line) never meet the readable form by surprise.
 */
export function prettyLogs(format: LogFormat, stdout: { isTTY?: boolean } = process.stdout): boolean {
  return format === 'pretty' || (format === 'auto' && stdout.isTTY === true);
}

/**
 * Where the logger writes: undefined for JSON on stdout (pino's own), or pino-pretty, the formatter pino's authors
 * keep, synchronous so its lines and the `Ready:` line after them (readyLine) reach the terminal in order. It formats
 * what pino already serialized: redaction and the error serializer (logging.ts) have run, a secret never reaches it.
 */
export async function logDestination(format: LogFormat): Promise<DestinationStream | undefined> {
  if (!prettyLogs(format)) return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty({ sync: true, colorize: process.stdout.isTTY === true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

/**
 * The address a person opens: the bound port on the host the server listens on, the machine itself for a wildcard
 * (HOST=0.0.0.0 or ::), so a terminal makes it a link that works.
 */
export function listeningUrl(address: AddressInfo | string | null): string | undefined {
  if (address === null || typeof address === 'string') return undefined;
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}/`;
}

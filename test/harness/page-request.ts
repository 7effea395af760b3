import { request as httpRequest } from 'node:http';

export interface PageAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => Record<string, unknown>;
}

/**
 * A request as a browser on http://localhost:<port> sends it (the sandbox relying party), through node:http so the
 * test sets every header and reads every byte. `body` is sent as given, with `contentType`; `declaredLength` instead
 * sends only the headers, announcing a body that never comes; `host` another Host header; `headers` any others.
 */
export function pageRequest(
  server: { url: string },
  method: string,
  path: string,
  options: { body?: string | Buffer; contentType?: string; declaredLength?: number; host?: string; headers?: Record<string, string> } = {},
): Promise<PageAnswer> {
  const { port } = new URL(server.url);
  const headers: Record<string, string | number> = { host: options.host ?? `localhost:${port}`, ...options.headers };
  if (options.contentType !== undefined) headers['content-type'] = options.contentType;
  if (options.declaredLength !== undefined) headers['content-length'] = options.declaredLength;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> });
      });
    });
    req.on('error', reject);
    if (options.declaredLength !== undefined) req.flushHeaders();
    else req.end(options.body);
  });
}

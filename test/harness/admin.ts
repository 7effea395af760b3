import assert from 'node:assert/strict';
import type { TestServer } from './server.js';

/** An /admin/api answer: the JSON body parsed when the content type is JSON, the raw bytes always. */
export interface AdminResponse {
  status: number;
  headers: Headers;
  text: string;
  body?: any;
  bytes: Buffer;
}

/** A request to the operators' API with a bearer token (none when `token` is null or absent). */
export async function adminRequest(server: TestServer, method: string, path: string, init: { token?: string | null; body?: unknown } = {}): Promise<AdminResponse> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(server.url + path, { method, headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = /json/.test(res.headers.get('content-type') ?? '');
  const text = json ? bytes.toString('utf8') : '';
  return { status: res.status, headers: res.headers, text, body: json && text ? JSON.parse(text) : undefined, bytes };
}

/** A case as an operator opens it (GET /admin/api/reviews/{type}/{id}): its status, hits and findings; 200 asserted. */
export async function reviewCase(server: TestServer, token: string, subjectType: string, subjectId: string): Promise<ReviewCase> {
  const res = await adminRequest(server, 'GET', `/admin/api/reviews/${subjectType}/${subjectId}`, { token });
  assert.equal(res.status, 200, res.text);
  return res.body as ReviewCase;
}

export interface ReviewCase {
  verificationStatus: string;
  hits: { list: string; entryNumber: string; status: string }[];
  findings: { code: string; severity: string }[];
}

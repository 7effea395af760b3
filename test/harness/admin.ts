import assert from 'node:assert/strict';
import { before } from 'node:test';
import { createOperator } from '../../src/domain/operators/operators.js';
import { later } from './later.js';
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

/** An operator as createOperator makes it, with its token. */
export type TestOperator = Awaited<ReturnType<typeof createOperator>>;

/**
 * The back office's four operators, made in a `before` hook of the calling describe (call it after the fixture that
 * starts `server`): two reviewers, Alice and Bob, and two supervisors, Sam and Sue; usable by name from the suite's
 * hooks and tests on (later.ts).
 */
export function useOperators(server: TestServer): { alice: TestOperator; bob: TestOperator; sam: TestOperator; sue: TestOperator } {
  const team = { alice: later<TestOperator>('Alice'), bob: later<TestOperator>('Bob'), sam: later<TestOperator>('Sam'), sue: later<TestOperator>('Sue') };
  before(async () => {
    const now = server.clock.now();
    team.alice.set(await createOperator(server.database, 'Alice', now, 'reviewer'));
    team.bob.set(await createOperator(server.database, 'Bob', now, 'reviewer'));
    team.sam.set(await createOperator(server.database, 'Sam', now, 'supervisor'));
    team.sue.set(await createOperator(server.database, 'Sue', now, 'supervisor'));
  });
  return { alice: team.alice.value, bob: team.bob.value, sam: team.sam.value, sue: team.sue.value };
}

/** A request to the operators' API as `operator`, with a JSON body when one is given. */
export function asOperator(server: TestServer, operator: { token: string }, method: string, path: string, body?: unknown): Promise<AdminResponse> {
  return adminRequest(server, method, `/admin/api${path}`, { token: operator.token, ...(body !== undefined ? { body } : {}) });
}

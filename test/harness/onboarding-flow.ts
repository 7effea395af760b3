import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createCustomer } from './customers.js';
import { pageRequest, type PageAnswer } from './page-request.js';
import type { SeededIntegrator, TestServer } from './server.js';

/*
 * The hosted onboarding flow as a browser without script drives it (docs/onboarding-links.md#the-hosted-flow): make
 * a link, GET its pages, POST its forms (urlencoded, or multipart with files), follow the 303s. Shared by the
 * individual and entity flow suites.
 */

export interface MadeLink {
  id: string;
  /** /onboarding/<token> */
  path: string;
  token: string;
}

export async function makeLink(server: TestServer, who: SeededIntegrator, body: Record<string, unknown>): Promise<MadeLink> {
  server.clock.advance(1000);
  const res = await who.client.post('/v1/onboarding-links', body);
  assert.equal(res.status, 201, res.text);
  const url = res.body.url as string;
  return { id: res.body.onboardingLinkId as string, path: new URL(url).pathname, token: url.split('/').pop()! };
}

export const getPage = (server: TestServer, path: string) => pageRequest(server, 'GET', path, { headers: { accept: 'text/html' } });

export function postForm(server: TestServer, path: string, fields: Record<string, string> | [string, string][]): Promise<PageAnswer> {
  const body = new URLSearchParams(Array.isArray(fields) ? fields : Object.entries(fields)).toString();
  return pageRequest(server, 'POST', path, { body, contentType: 'application/x-www-form-urlencoded' });
}

export interface FilePart {
  filename: string;
  type: string;
  bytes: Buffer;
}

/** A multipart/form-data body as a browser sends it: its fields, then its files. */
export function multipartBody(fields: Record<string, string>, files: Record<string, FilePart>): { body: Buffer; contentType: string } {
  const boundary = `----onboarding${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const [name, file] of Object.entries(files)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function postFiles(server: TestServer, path: string, fields: Record<string, string>, files: Record<string, FilePart>): Promise<PageAnswer> {
  const { body, contentType } = multipartBody(fields, files);
  return pageRequest(server, 'POST', path, { body, contentType });
}

/** The next step a 303 names (its path). */
export function nextPath(answer: PageAnswer): string {
  assert.equal(answer.status, 303, answer.text);
  return answer.headers.location as string;
}

/** The passkey step's challenge (the form's data-challenge). */
export function challengeOf(html: string): string {
  const found = /data-challenge="([^"]+)"/.exec(html);
  assert.ok(found, 'the passkey form carries a challenge');
  return found[1]!;
}

/** The inputs the page marks invalid, by name, each with the id of the error that describes it. */
export function invalidInputs(html: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const tag of html.match(/<(input|select)[^>]*aria-invalid="true"[^>]*>/g) ?? []) {
    const name = /name="([^"]+)"/.exec(tag)?.[1];
    const described = /aria-describedby="([^"]+)"/.exec(tag)?.[1];
    if (name) found[name] = described ?? '';
  }
  return found;
}

/** A customer whose passport the sandbox refused (resubmission requested): it owes document.identity only. */
export async function refusedIdentityCustomer(server: TestServer, who: SeededIntegrator): Promise<{ userId: string; accountId: string }> {
  const customer = await createCustomer(server, who, { approve: false });
  const details = async () => (await who.client.get(`/v1/query/get-user-details?userId=${customer.userId}`)).body;
  const passport = (await details()).verificationDocuments.find((d: { documentType: string }) => d.documentType === 'passport');
  server.clock.advance(1000);
  const asked = await who.client.post('/v1/sandbox/simulate-verification', { accountId: customer.accountId, outcome: 'request_resubmission', reasons: ['The photo is blurred'], documents: [passport.documentId] });
  assert.equal(asked.status, 200, asked.text);
  assert.deepEqual((await details()).requirements.currentlyDue, ['document.identity']);
  return { userId: customer.userId, accountId: customer.accountId };
}

/** The link as GET /v1/onboarding-links/{id} shows it. */
export async function linkView(server: TestServer, who: SeededIntegrator, id: string): Promise<Record<string, unknown>> {
  server.clock.advance(1000);
  return (await who.client.get(`/v1/onboarding-links/${id}`)).body as Record<string, unknown>;
}

/** The details step's form of a Berliner (berliner() in fixtures.ts) as a browser posts it: the inputs' names. */
export const berlinerForm = (email: string, overrides: Record<string, string> = {}): Record<string, string> => ({
  firstName: 'Jonas',
  middleName: '',
  lastName: 'Becker',
  email,
  phone: '+4930123456',
  birthDate: '1990-09-30',
  nationality: 'DEU',
  countryOfBirth: 'DEU',
  'residentialAddress.country': 'DEU',
  'residentialAddress.streetLine1': 'Unter den Linden 77',
  'residentialAddress.streetLine2': '',
  'residentialAddress.city': 'Berlin',
  'residentialAddress.state': 'DE-BE',
  'residentialAddress.postalCode': '10117',
  ...overrides,
});

import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { pdf, png } from './fixtures.js';

// Hostile input for the hosted pages (test/http/onboarding-pages-fuzz.test.ts): path segments, query strings,
// headers and bodies as a browser, a script or an attacker may send them to /onboarding/<token>[/<step>].

/** Percent-encodes every byte but unreserved ones: a path segment or query part node:http will send as it is. */
export const encode = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

/** Names a parser may treat specially: prototype pollution, bracket and dot nesting. */
export const POLLUTING_NAMES = ['__proto__', 'constructor', 'prototype', '__proto__[polluted]', 'constructor[prototype][polluted]', '__proto__.polluted', 'a[b][c]', 'a.b.c', 'hasOwnProperty', 'toString'];

const text: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('\u0000', '\u202Egnp.exe', '😀'.repeat(20), '\ud800', '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '../../etc/passwd', '%00', '%zz', '\r\nSet-Cookie: x=1', ' ', ''),
  fc.constantFrom(300, 5_000).map((n) => 'x'.repeat(n)),
);

/**
 * One path segment where the token goes, already encoded: malformed (any text, wrong lengths, traversal, NUL,
 * broken percent-encoding, over the router's and the schema's limits) or well-formed and unknown.
 */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }).map(encode),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encode),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `obl_${Buffer.from(b).toString('base64url')}`),
  fc.nat(80).map((n) => `obl_${randomBytes(n).toString('base64url')}`),
  fc.constantFrom(
    '..', '.', '%2e%2e', '..%2F..%2Fetc%2Fpasswd', '%00', '%', '%zz', '%E0%A4%A', 'obl_%00', '__proto__', 'constructor', 'prototype', 'assets',
    '%3B', '%23', 'a%3Fb', '%2F', `obl_${'A'.repeat(43)}`, `OBL_${'A'.repeat(43)}`, `obl_${'A'.repeat(42)}=`, `obl_${'A'.repeat(43)}%20`, `%20obl_${'A'.repeat(43)}`,
    'x'.repeat(201), 'x'.repeat(2_100), `obl_${'A'.repeat(3_000)}`, 'inv_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  ),
);

/** A query string (with its `?`) or nothing: polluting names, repeated keys, broken encoding, long values. */
export const hostileQuery: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?', '?&&&', '?=', '?%', '?a=%zz', '?a=1&a=2', '?country=USA&country=DEU', '?country[]=USA', '?__proto__[polluted]=1', '?constructor[prototype][polluted]=1'),
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...POLLUTING_NAMES, 'country', 'token', 'step', 'lang', 'next'), fc.string({ maxLength: 10 })), text), { minLength: 1, maxLength: 6 })
    .map((pairs) => `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}`.slice(0, 4_000)),
);

/**
 * Header values node:http will send (tab, printable ASCII, Latin-1 bytes); anything else is cut. Node refuses a
 * request whose head passes 16 KiB before the application sees it (431, not ours): the headers stay well below.
 */
const headerValue = (s: string) => s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '').slice(0, 2_000);

/** Extra request headers: odd Accept, cookies, forwarded addresses, referers, a long user agent. */
export const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    accept: fc.constantFrom('text/html', '*/*', 'application/json', '', 'text/html;q=0, application/json', 'image/*', 'x'.repeat(2_000)),
    'accept-language': fc.oneof(fc.constantFrom('de-DE,de;q=0.9', '*', 'xx-'.repeat(500)), text.map(headerValue)),
    cookie: fc.oneof(fc.constantFrom('__proto__=1', 'session=1; session=2', '=', ';;;'), text.map(headerValue)),
    'x-forwarded-for': fc.constantFrom('1.2.3.4', '::1', 'not-an-ip', '1.2.3.4, 5.6.7.8', ''),
    referer: fc.constantFrom('https://evil.example/', 'javascript:alert(1)', ''),
    'user-agent': fc.constantFrom('Mozilla/5.0', 'x'.repeat(4_000), ''),
    'if-none-match': fc.constantFrom('*', '"x"'),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', 'x'),
  },
  { requiredKeys: [] },
);

export interface HostileBody {
  what: string;
  contentType?: string;
  body: string | Buffer;
}

const urlencoded = (pairs: [string, string][]) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');

/** A multipart body by hand (fields and files), or broken on purpose. */
function multipart(fields: [string, string][], files: [string, string, Buffer][], boundary: string, broken: 'none' | 'no-end' | 'other-boundary'): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const [name, filename, bytes] of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`), bytes, Buffer.from('\r\n'));
  }
  if (broken !== 'no-end') parts.push(Buffer.from(`--${broken === 'other-boundary' ? 'nope' : boundary}--\r\n`));
  return Buffer.concat(parts);
}

/**
 * A body for a POST step: `fields` are the form's own names (the API's paths) so some bodies reach past the parsers.
 * urlencoded with polluting or repeated names and hostile values, huge ones, multipart (files with hostile names,
 * broken), JSON, binary, and wrong or missing content types.
 */
export function hostileBody(fields: readonly string[]): fc.Arbitrary<HostileBody> {
  const name = fc.oneof(fc.constantFrom(...(fields.length > 0 ? fields : ['firstName']), ...POLLUTING_NAMES), fc.string({ maxLength: 12 }));
  const pairs = fc.array(fc.tuple(name, text), { maxLength: 12 });
  const form = 'application/x-www-form-urlencoded';
  return fc.oneof(
    pairs.map((p) => ({ what: 'urlencoded', contentType: form, body: urlencoded(p) })),
    fc.tuple(name, text).map(([k, v]) => ({ what: 'urlencoded, a name repeated', contentType: form, body: urlencoded([[k, v], [k, `${v}2`], [k, '']]) })),
    fc.constantFrom(200_000, 3_000_000).map((n) => ({ what: `urlencoded, ${n} bytes`, contentType: form, body: `${fields[0] ?? 'firstName'}=${'x'.repeat(n)}` })),
    fc.constant({ what: 'urlencoded, 5,000 fields', contentType: form, body: Array.from({ length: 5_000 }, (_, i) => `f${i}=1`).join('&') }),
    fc
      .tuple(pairs, fc.array(fc.tuple(name, fc.constantFrom('passport.pdf', '../../etc/passwd', 'a\u0000.pdf', '"quoted".pdf', ''), fc.uint8Array({ maxLength: 2_000 }).map((b) => Buffer.from(b))), { maxLength: 3 }), fc.constantFrom<'none' | 'no-end' | 'other-boundary'>('none', 'no-end', 'other-boundary'))
      .map(([p, files, broken]) => ({ what: `multipart (${broken})`, contentType: 'multipart/form-data; boundary=fuzzboundary', body: multipart(p, files, 'fuzzboundary', broken) })),
    fc.constant({ what: 'multipart without a boundary', contentType: 'multipart/form-data', body: 'x' }),
    fc.constantFrom('{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '[1,2]', '{', 'null').map((body) => ({ what: 'JSON', contentType: 'application/json', body })),
    fc.uint8Array({ maxLength: 4_000 }).map((b) => ({ what: 'binary', contentType: 'application/octet-stream', body: Buffer.from(b) })),
    fc
      .tuple(fc.constantFrom('text/plain', 'application/xml', `${form}; charset=latin1`, 'image/png', 'multipart/mixed; boundary=x', '', 'x/y;;;'), pairs)
      .map(([contentType, p]) => ({ what: `Content-Type ${contentType || '(empty)'}`, contentType, body: urlencoded(p) })),
    pairs.map((p) => ({ what: 'no Content-Type', body: urlencoded(p) })),
  );
}

/** A form of a page as a browser would submit it: its action, its encoding, and its fields filled in. */
export interface PageForm {
  action: string;
  /** method="get": a form that asks for another page (the details step's country first), not a save. */
  get: boolean;
  multipart: boolean;
  fields: [string, string][];
  /** Its file inputs' names (document capture). */
  files: string[];
}

/** Plausible values by the input's last name segment; anything else gets 'x'. */
const FILL: Record<string, string> = {
  firstName: 'Ana', lastName: 'Souza', email: 'ana.souza@example.com', phone: '+14155552671', birthDate: '1990-01-01', streetLine1: '1 Market St',
  city: 'San Francisco', postalCode: '94105', socialSecurityNumber: '123-45-6789', companyNumber: 'C1234567', legalName: 'Fuzz Ltd', website: 'https://example.com',
};

/** The page's forms, filled in as a person would: selects take their first real option, checkboxes are ticked. */
export function formsOf(html: string): PageForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, attrs, inner]) => {
    const fields: [string, string][] = [];
    const files: string[] = [];
    for (const [tag, kind] of inner!.matchAll(/<(input|select|textarea)\b[^>]*>/g)) {
      const name = /\sname="([^"]+)"/.exec(tag)?.[1];
      if (!name) continue;
      const type = /\stype="([^"]+)"/.exec(tag)?.[1] ?? 'text';
      if (type === 'file') files.push(name);
      if (type === 'file' || type === 'submit') continue;
      const value = /\svalue="([^"]*)"/.exec(tag)?.[1];
      if (kind === 'select') {
        const options = new RegExp(`<select\\b[^>]*name="${name.replace(/[.[\]]/g, '\\$&')}"[^>]*>([\\s\\S]*?)</select>`).exec(inner!)?.[1] ?? '';
        const values = [...options.matchAll(/value="([^"]+)"/g)].map((m) => m[1]!);
        fields.push([name, values.find((v) => v === 'USA' || v === 'US-CA') ?? values[0] ?? '']);
      } else if (type === 'hidden') fields.push([name, value ?? '']);
      else if (type === 'checkbox') fields.push([name, value ?? 'on']);
      else fields.push([name, value || (FILL[name.split('.').pop()!] ?? 'x')]);
    }
    return { action: /\saction="([^"]*)"/.exec(attrs!)?.[1] ?? '', get: /\smethod="get"/i.test(attrs!), multipart: /multipart\/form-data/.test(attrs!), fields, files };
  });
}

/** A file for a file input: a real PDF or PNG, or bytes that are neither, under names a browser would not send. */
const upload: fc.Arbitrary<[string, Buffer]> = fc.oneof(
  fc.constant<[string, Buffer]>(['passport.pdf', pdf('fuzz')]),
  fc.constant<[string, Buffer]>(['photo.png', png(7)]),
  fc.tuple(fc.constantFrom('../../etc/passwd', 'a\u0000.pdf', '"quoted".pdf', '', 'x'.repeat(300)), fc.uint8Array({ maxLength: 3_000 }).map((b) => Buffer.from(b))),
  fc.constant<[string, Buffer]>(['empty.pdf', Buffer.alloc(0)]),
  fc.constant<[string, Buffer]>(['big.pdf', Buffer.concat([pdf('big'), Buffer.alloc(11_000_000)])]),
);

/** The form, with one field replaced by a hostile value, a polluting name added, or a field repeated; files attached. */
export function mutatedForm(form: PageForm): fc.Arbitrary<HostileBody> {
  const at = fc.nat(Math.max(0, form.fields.length - 1));
  const attached = fc.tuple(...form.files.map((name) => fc.option(upload.map(([filename, bytes]): [string, string, Buffer] => [name, filename, bytes]))));
  return attached.chain((files) => {
    const sent = files.filter((f): f is [string, string, Buffer] => f !== null);
    const encodeAs = (fields: [string, string][], what: string): HostileBody =>
      form.multipart
        ? { what: `the form (multipart, ${sent.map(([n, f, b]) => `${n}=${f.slice(0, 20)} ${b.length} B`).join(', ')}), ${what}`, contentType: 'multipart/form-data; boundary=fuzzboundary', body: multipart(fields, sent, 'fuzzboundary', 'none') }
        : { what: `the form, ${what}`, contentType: 'application/x-www-form-urlencoded', body: urlencoded(fields) };
    return mutations(form, at, encodeAs);
  });
}

function mutations(form: PageForm, at: fc.Arbitrary<number>, encodeAs: (fields: [string, string][], what: string) => HostileBody): fc.Arbitrary<HostileBody> {
  return fc.oneof(
    fc.constant(encodeAs(form.fields, 'as filled in')),
    fc.tuple(at, text).map(([i, v]) => encodeAs(form.fields.map(([k, old], j): [string, string] => [k, j === i ? v : old]), `field ${i} replaced`)),
    fc.tuple(fc.constantFrom(...POLLUTING_NAMES), text).map(([k, v]) => encodeAs([...form.fields, [k, v]], `with ${k}`)),
    at.map((i) => encodeAs(form.fields.length > 0 ? [...form.fields, [form.fields[i]![0], 'again']] : [], `field ${i} repeated`)),
    at.map((i) => encodeAs(form.fields.filter((_, j) => j !== i), `field ${i} left out`)),
  );
}

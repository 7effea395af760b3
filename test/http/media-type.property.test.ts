import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { jsonContentTypeRefusal, parseMediaType } from '../../src/http/media-type.js';

// Fastify's own Content-Type parser (internal, not typed): a header ours accepts must be one Fastify accepts too,
// or Fastify would refuse it after our hook let it through.
const FastifyContentType = createRequire(import.meta.url)('fastify/lib/content-type.js') as new (value: string) => {
  isValid: boolean;
  mediaType: string | undefined;
  parameters: Map<string, string>;
};

// RFC 9110 §5.6.2: tchar.
const TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split('');
const token = fc.string({ unit: fc.constantFrom(...TCHARS), minLength: 1, maxLength: 12 });
const ows = fc.string({ unit: fc.constantFrom(' ', '\t'), maxLength: 3 });
/** qdtext and the characters a quoted-pair may escape (obs-text included, as Node decodes header bytes as latin1). */
const qdchar = fc.oneof(
  fc.constantFrom(...TCHARS, ' ', '\t', '(', ')', ',', '/', ':', ';', '<', '=', '>', '?', '@', '[', ']', '{', '}', 'é', '\u00ff'),
  fc.constantFrom('"', '\\'),
);
const quotable = fc.string({ unit: qdchar, maxLength: 10 });
const quote = (value: string) => `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
/** A name in random case: type, subtype and parameter names are case-insensitive. */
const anyCase = (name: string) => fc.mixedCase(fc.constant(name));

/** A parameter as sent ([text, name lower case, value unquoted]), its value a token or a quoted-string. */
const parameter = fc.oneof(
  fc.tuple(token, token).map(([name, value]) => [`${name}=${value}`, name.toLowerCase(), value] as const),
  fc.tuple(token, quotable).map(([name, value]) => [`${name}=${quote(value)}`, name.toLowerCase(), value] as const),
);

/** A media type as RFC 9110 allows it to be written, with what it means. */
const mediaType = fc
  .record({ type: token, subtype: token, params: fc.array(fc.tuple(ows, ows, parameter), { maxLength: 4 }), trailing: ows })
  .map(({ type, subtype, params, trailing }) => ({
    text: `${type}/${subtype}${params.map(([before, after, [text]]) => `${before};${after}${text}`).join('')}${trailing}`,
    type: type.toLowerCase(),
    subtype: subtype.toLowerCase(),
    parameters: params.map(([, , [, name, value]]) => [name, value]),
  }));

/** `application/json` spelled any way RFC 9110 allows, with a UTF-8 charset or none, and other parameters. */
const utf8Json = fc
  .record({
    type: anyCase('application'),
    subtype: fc.oneof(anyCase('json'), token.map((prefix) => `${prefix}+json`)),
    charset: fc.option(fc.tuple(anyCase('charset'), fc.oneof(anyCase('utf-8'), anyCase('utf8')), fc.boolean()), { nil: undefined }),
    before: ows,
    after: ows,
    others: fc.array(parameter.filter(([, name]) => name !== 'charset'), { maxLength: 2 }),
  })
  .map(({ type, subtype, charset, before, after, others }) => {
    const params = [...others.map(([text]) => text), ...(charset ? [`${charset[0]}=${charset[2] ? quote(charset[1]) : charset[1]}`] : [])];
    return `${type}/${subtype}${params.map((p) => `${before};${after}${p}`).join('')}`;
  });

describe('parseMediaType (RFC 9110 §8.3.1)', () => {
  it('reads every media type the grammar allows: names lower case, values unquoted', () => {
    fc.assert(
      fc.property(mediaType, ({ text, type, subtype, parameters }) => {
        assert.deepEqual(parseMediaType(text), { type, subtype, parameters }, text);
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with Fastify’s parser on every media type it reads, and on any text, never throws', () => {
    fc.assert(
      fc.property(fc.oneof(mediaType.map((m) => m.text), fc.string({ unit: fc.constantFrom(...TCHARS, '/', ';', '=', '"', '\\', ' ', ',') , maxLength: 30 })), (text) => {
        const ours = parseMediaType(text);
        if (!ours) return;
        const theirs = new FastifyContentType(text);
        assert.ok(theirs.isValid, `Fastify refuses ${JSON.stringify(text)}`);
        assert.equal(theirs.mediaType, `${ours.type}/${ours.subtype}`, text);
        const charset = ours.parameters.filter(([name]) => name === 'charset').at(-1)?.[1];
        assert.equal(theirs.parameters.get('charset'), charset, text);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what is not a media type', () => {
    for (const text of ['', 'json', 'application/', '/json', 'application/json/x', 'application json', 'application/json; charset', 'application/json; charset=', 'application/json; charset="utf-8', 'application/json; a=b c', 'application/js on', 'application/json,text/plain', 'application/json;charset=utf-8,']) {
      assert.equal(parseMediaType(text), undefined, text);
    }
  });
});

describe('jsonContentTypeRefusal: the one judge of request bodies’ Content-Type', () => {
  it('accepts application/json and application/*+json in any case, any whitespace and quoting, with a UTF-8 charset or none', () => {
    fc.assert(
      fc.property(utf8Json, (text) => assert.equal(jsonContentTypeRefusal(text), undefined, text)),
      { numRuns: 3000 },
    );
    for (const text of ['application/json', 'APPLICATION/JSON', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json ; charset="utf-8"', 'Application/Json;Charset=Utf-8', 'application/problem+json', 'application/json;;']) {
      assert.equal(jsonContentTypeRefusal(text), undefined, text);
    }
  });

  it('refuses any other charset with a 415 naming it, at /content-type in the header', () => {
    fc.assert(
      fc.property(utf8Json, token.filter((c) => !['utf-8', 'utf8'].includes(c.toLowerCase())), fc.boolean(), (accepted, charset, quoted) => {
        const text = `${accepted}; charset=${quoted ? quote(charset) : charset}`;
        const refused = jsonContentTypeRefusal(text);
        assert.ok(refused, text);
        assert.equal(refused.code, 'unsupported_media_type');
        assert.equal(refused.status, 415);
        assert.ok(refused.detail.includes(`charset ${charset.slice(0, 60)}`), refused.detail);
        assert.deepEqual(refused.options.errors?.map((e) => [e.pointer, e.in, e.code]), [['/content-type', 'header', 'invalid_value']]);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses other types, lookalikes, a missing header and text that is not a media type', () => {
    const cases: [string | undefined, string, RegExp][] = [
      ['text/plain', 'invalid_value', /not text\/plain/],
      ['application/jsonx', 'invalid_value', /not application\/jsonx/],
      ['application/x-json', 'invalid_value', /not application\/x-json/],
      ['application/+json', 'invalid_value', /not application\/\+json/],
      ['application/x-www-form-urlencoded', 'invalid_value', /not application\/x-www-form-urlencoded/],
      ['multipart/form-data; boundary=x', 'invalid_value', /not multipart\/form-data/],
      ['json/application', 'invalid_value', /not json\/application/],
      ['application/json; charset=latin1', 'invalid_value', /charset latin1/],
      ['application/json; charset="ISO-8859-1"', 'invalid_value', /charset ISO-8859-1/],
      ['application/json; charset=utf-16', 'invalid_value', /charset utf-16/],
      ['application/json; charset=utf-8; charset=latin1', 'invalid_value', /charset latin1/],
      ['application/json; charset', 'invalid_format', /not a media type/],
      ['application/json,text/plain', 'invalid_format', /not a media type/],
      [undefined, 'required', /no Content-Type/],
    ];
    for (const [text, code, detail] of cases) {
      const refused = jsonContentTypeRefusal(text);
      assert.ok(refused, String(text));
      assert.deepEqual([refused.code, refused.options.errors?.[0]?.pointer, refused.options.errors?.[0]?.in, refused.options.errors?.[0]?.code], ['unsupported_media_type', '/content-type', 'header', code], String(text));
      assert.match(refused.detail, detail);
    }
  });
});

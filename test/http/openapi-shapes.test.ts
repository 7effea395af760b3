import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { openApiDocument } from '../../scripts/generate-sdk.js';

type Schema = Record<string, unknown> & { properties?: Record<string, unknown> };

/** What makes two schemas the same shape: property names and their types (consts and enums included), nothing said about them. */
function shapeOf(node: unknown): string {
  if (!node || typeof node !== 'object') return JSON.stringify(node);
  const s = node as Schema & { $ref?: string; items?: unknown; type?: unknown; const?: unknown; enum?: unknown };
  if (s.$ref) return s.$ref.split('/').pop()!;
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(s[k])) return `${k}(${(s[k] as unknown[]).map(shapeOf).join('|')})`;
  if (s.properties) return `{${Object.keys(s.properties).sort().map((k) => `${k}:${shapeOf(s.properties![k])}`).join(',')}}`;
  if (s.items) return `${shapeOf(s.items)}[]`;
  return `${[s.type ?? 'any'].flat().join('|')}${s.const !== undefined ? `=${JSON.stringify(s.const)}` : ''}${s.enum ? `∈${JSON.stringify(s.enum)}` : ''}`;
}

/** Inline object schemas (with properties, not a $ref) written out more than twice in `doc`, with where. */
function shapesWrittenOutMoreThanTwice(doc: unknown): string[] {
  const where = new Map<string, string[]>();
  const walk = (node: unknown, at: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    const props = (node as Schema).properties;
    if (props && typeof props === 'object' && !Array.isArray(props) && Object.keys(props).length > 0 && Object.values(props).every((p) => typeof p === 'object' || typeof p === 'boolean')) {
      const key = shapeOf(node);
      where.set(key, [...(where.get(key) ?? []), at]);
    }
    // Examples are data, not schemas.
    for (const [k, v] of Object.entries(node)) if (k !== 'example' && k !== 'examples') walk(v, `${at}/${k}`);
  };
  walk(doc, '#');
  return [...where].filter(([, at]) => at.length > 2).map(([shape, at]) => `${at.length}× ${shape} at ${at.join(', ')}`);
}

describe('no inline object shape is written out more than twice in /openapi.json', () => {
  let doc: unknown;
  before(async () => {
    doc = await openApiDocument();
  });

  it('finds a shape written out three times, whatever its descriptions, and lets two and $refs be', () => {
    const status = (description: string) => ({ type: 'object', properties: { status: { type: 'string', description } } });
    const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
    const three = { paths: { '/a': { get: { responses: { 200: json(status('a')), 503: json(status('b')) } } }, '/b': { get: { responses: { 200: json(status('c')) } } } } };
    assert.equal(shapesWrittenOutMoreThanTwice(three).length, 1);
    const two = { paths: { '/a': { get: { responses: { 200: json(status('a')), 503: json(status('b')) } } }, '/b': { get: { responses: { 200: json({ $ref: '#/components/schemas/Status' }) } } } } };
    assert.deepEqual(shapesWrittenOutMoreThanTwice(two), []);
    const consts = ['x', 'y', 'z'].map((t) => ({ type: 'object', properties: { type: { const: t } } }));
    assert.deepEqual(shapesWrittenOutMoreThanTwice({ consts }), [], 'a fixed value makes a different shape (event branches)');
  });

  it('walks the document the server serves (sandbox: every route) and finds none', () => {
    assert.deepEqual(shapesWrittenOutMoreThanTwice(doc), [], 'name the shape: give its TypeBox schema a title (src/http/openapi-components.ts)');
  });
});

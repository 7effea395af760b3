import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** A JSON Schema in an OpenAPI document: the keywords tests read are named, the rest are there as they are. */
export interface OpenApiSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  items?: OpenApiSchema;
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  [keyword: string]: unknown;
}
export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: OpenApiSchema;
}
export interface OpenApiMedia {
  schema?: OpenApiSchema;
  example?: unknown;
}
export interface OpenApiHeader {
  $ref?: string;
  required?: boolean;
  schema?: OpenApiSchema;
}
export interface OpenApiResponse {
  description: string;
  content?: Record<string, OpenApiMedia>;
  headers?: Record<string, OpenApiHeader>;
}
export type OpenApiSecurity = Record<string, string[]>[];
export interface OpenApiOperation {
  operationId: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, OpenApiMedia> };
  responses: Record<string, OpenApiResponse>;
  security?: OpenApiSecurity;
  summary?: string;
  description?: string;
  tags?: string[];
}
export interface OpenApiSecurityScheme {
  type: string;
  name?: string;
  in?: string;
  scheme?: string;
  description?: string;
}
/** The parts of an OpenAPI 3.1 document the tests read. */
export interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { securitySchemes: Record<string, OpenApiSecurityScheme>; schemas?: Record<string, OpenApiSchema>; headers?: Record<string, OpenApiHeader> };
  security: OpenApiSecurity;
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
}
export interface Operation {
  method: string;
  path: string;
  op: OpenApiOperation;
}
/** What a check needs of a response: status, headers, and the parsed JSON body or the raw text. */
export interface CheckedResponse {
  status: number;
  headers: Headers;
  text: string;
  body?: unknown;
}

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks real responses against an OpenAPI document: the operation exists, declares the status and the content
 * type, and (JSON) the body validates against the declared schema; a binary body is declared `format: binary`.
 */
export function openApiChecker(doc: OpenApiDoc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) operations.push({ method: method.toUpperCase(), path, op });
  }

  function operationFor(method: string, url: string): Operation | undefined {
    const path = url.split('?')[0]!;
    return operations.find((o) => o.method === method && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
  }

  function assertConforms(method: string, url: string, res: CheckedResponse): void {
    const entry = operationFor(method, url);
    assert.ok(entry, `${method} ${url} is documented`);
    const declared = entry.op.responses[String(res.status)];
    assert.ok(declared, `${entry.op.operationId}: status ${res.status} is declared (${res.text.slice(0, 200)})`);
    // Declared headers: the required ones are sent, and whatever is sent matches its schema (integers as text).
    for (const [name, declaredHeader] of Object.entries(declared.headers ?? {})) {
      const header = declaredHeader.$ref ? doc.components.headers?.[declaredHeader.$ref.split('/').pop()!] : declaredHeader;
      assert.ok(header, `${entry.op.operationId} ${res.status}: header ${name} resolves`);
      const value = res.headers.get(name);
      if (value === null) {
        assert.ok(!header.required, `${entry.op.operationId} ${res.status}: the required header ${name} is sent`);
        continue;
      }
      const validateHeader = ajv.compile(header.schema ?? {});
      const parsed = header.schema?.type === 'integer' && /^\d+$/.test(value) ? Number(value) : value;
      assert.ok(validateHeader(parsed), `${entry.op.operationId} ${res.status}: header ${name}: ${value} ${ajv.errorsText(validateHeader.errors)}`);
    }
    if (res.status === 204) {
      assert.equal(res.text, '');
      return;
    }
    const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const media = declared.content?.[contentType];
    assert.ok(media, `${entry.op.operationId} ${res.status}: content type ${contentType} is declared`);
    if (!/json$/.test(contentType)) {
      assert.equal(media.schema?.format, 'binary', `${entry.op.operationId} ${res.status}: ${contentType} is declared binary`);
      return;
    }
    const ref = `openapi#/paths/${escape(entry.path)}/${method.toLowerCase()}/responses/${res.status}/content/${escape(contentType)}/schema`;
    const validate = ajv.compile({ $ref: ref });
    assert.ok(validate(res.body), `${entry.op.operationId} ${res.status}: ${ajv.errorsText(validate.errors)} in ${res.text.slice(0, 300)}`);
  }

  /** A validator of one named component (`#/components/schemas/<name>`), for payloads no operation returns as such. */
  function componentValidator(name: string): (value: unknown) => string | undefined {
    const validate = ajv.compile({ $ref: `openapi#/components/schemas/${escape(name)}` });
    return (value) => (validate(value) ? undefined : ajv.errorsText(validate.errors));
  }

  return { operations, assertConforms, componentValidator };
}

/**
 * Object schemas (two or more properties) written out more than once anywhere in `doc`, ignoring descriptions and
 * examples: each should be one named component. Empty when every shared shape is named.
 */
export function repeatedShapes(doc: unknown): string[] {
  const counts = new Map<string, { n: number; names: string }>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    const schema = node as { properties?: Record<string, unknown>; description?: unknown; examples?: unknown };
    if (schema.properties && typeof schema.properties === 'object' && Object.keys(schema.properties).length >= 2) {
      const { description: _d, examples: _e, ...shape } = schema;
      const key = JSON.stringify(shape);
      const seen = counts.get(key) ?? { n: 0, names: Object.keys(schema.properties).join(', ') };
      counts.set(key, { ...seen, n: seen.n + 1 });
    }
    Object.values(node).forEach(walk);
  };
  walk(doc);
  return [...counts.values()].filter((c) => c.n > 1).map((c) => `${c.n}× {${c.names}}`);
}

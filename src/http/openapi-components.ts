/**
 * Named components for the OpenAPI documents. Route schemas stay inline for validation (Ajv and the serializer
 * read them as they are); in the document, every schema object with a `title` becomes
 * `#/components/schemas/<title>` and each use becomes a `$ref` to it, so no shape is written out twice and
 * generated SDKs get one type per shape. The title is the component's name; a use site's own description stays
 * beside the `$ref` (OpenAPI 3.1 allows that).
 */

import { eachObject, isObject, type Json, type JsonObject } from './openapi-json.js';

const COMPONENT_NAME = /^[A-Za-z][A-Za-z0-9]*$/;

/** The schema's content without what may differ between its uses: its description and examples. */
function content(schema: JsonObject): string {
  const { description: _description, examples: _examples, ...rest } = schema;
  return JSON.stringify(rest);
}

export class ComponentNameConflict extends Error {}

/**
 * Hoists every titled schema of `doc` into `components.schemas`, bottom-up, and returns the document. Two
 * different shapes under one title throw ComponentNameConflict (at start-up: a test starts the server).
 */
export function nameTitledSchemas<T extends object>(doc: T): T {
  const root = doc as unknown as JsonObject;
  const components = (isObject(root.components) ? root.components : (root.components = {})) as JsonObject;
  const schemas = (isObject(components.schemas) ? components.schemas : (components.schemas = {})) as JsonObject;
  const seen = new Map<string, string>();

  const visit = (node: Json, inSchema: boolean): Json => {
    if (Array.isArray(node)) return node.map((item) => visit(item, inSchema));
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      // `examples` and `example` hold data, not schemas; `properties` maps names to schemas.
      out[key] = key === 'examples' || key === 'example' || key === 'default' || key === 'const' ? value : visit(value, inSchema || key === 'schema');
    }
    const title = out.title;
    if (!inSchema || typeof title !== 'string' || !COMPONENT_NAME.test(title) || !('type' in out || 'oneOf' in out || 'anyOf' in out || 'allOf' in out)) return out;
    // A nullable use (`type: [object, null]`, from Nullable()) refers to the component or null.
    if (Array.isArray(out.type) && out.type.length === 2 && out.type.includes('null')) {
      const { description, ...nonNull } = out;
      const ref = visit({ ...nonNull, type: out.type.find((t) => t !== 'null')! }, true);
      return { anyOf: [ref, { type: 'null' }], ...(typeof description === 'string' ? { description } : {}) };
    }
    const shape = content(out);
    const known = seen.get(title);
    if (known === undefined) {
      seen.set(title, shape);
      schemas[title] = out;
    } else if (known !== shape) {
      throw new ComponentNameConflict(`two different schemas are titled ${title}: give one of them another title\n${known}\n${shape}`);
    }
    const component = schemas[title] as JsonObject;
    const ref: JsonObject = { $ref: `#/components/schemas/${title}` };
    if (typeof out.description === 'string' && out.description !== component.description) ref.description = out.description;
    return ref;
  };

  // Registered components first ($id schemas, such as Problem), each visited without its own title so that it is
  // not replaced by a reference to itself; then everything else.
  for (const [name, schema] of Object.entries({ ...schemas })) {
    if (!isObject(schema)) continue;
    const { title, ...rest } = schema;
    const visited = { ...(title === undefined ? {} : { title }), ...(visit(rest, true) as JsonObject) };
    schemas[name] = visited;
    seen.set(name, content(visited));
  }
  for (const key of Object.keys(root)) if (key !== 'components') root[key] = visit(root[key]!, false);
  return doc;
}

/**
 * Drops the schemas and headers no operation reaches (directly or through other components): both documents are
 * made from one application, whose shared schemas are registered once for all of them.
 */
export function pruneUnusedComponents<T extends object>(doc: T): T {
  const root = doc as unknown as JsonObject;
  const components = isObject(root.components) ? root.components : undefined;
  if (!components) return doc;
  const refs = (node: Json, found: Set<string>): Set<string> => {
    eachObject(node, ({ $ref }) => {
      if (typeof $ref === 'string' && $ref.startsWith('#/components/')) found.add($ref.slice('#/components/'.length));
    });
    return found;
  };
  const reached = new Set<string>();
  let frontier = refs(Object.fromEntries(Object.entries(root).filter(([key]) => key !== 'components')), new Set());
  while (frontier.size > 0) {
    const next = new Set<string>();
    for (const key of frontier) {
      if (reached.has(key)) continue;
      reached.add(key);
      const [kind, name] = key.split('/') as [string, string];
      const section = components[kind];
      if (isObject(section) && section[name] !== undefined) refs(section[name]!, next);
    }
    frontier = next;
  }
  for (const kind of ['schemas', 'headers', 'examples']) {
    const section = components[kind];
    if (!isObject(section)) continue;
    // A new section, not deletions from this one: the examples are one object shared by both documents (and by
    // every app a process builds), and the admin document reaches fewer of them than the public one.
    components[kind] = Object.fromEntries(Object.entries(section).filter(([name]) => reached.has(`${kind}/${name}`)));
  }
  return doc;
}

/** The single value a schema allows (`const`, or an `enum` of one), if it is a string. */
function onlyValue(schema: Json | undefined): string | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema.const === 'string') return schema.const;
  return Array.isArray(schema.enum) && schema.enum.length === 1 && typeof schema.enum[0] === 'string' ? schema.enum[0] : undefined;
}

/**
 * Adds the OpenAPI `discriminator` to every `oneOf` of named components that one property tells apart: each branch
 * requires it and allows one distinct value (the accounts' and the events' `type`, the policies' rules). Generated clients then pick
 * the branch by that property instead of trying each. Run after nameTitledSchemas.
 */
export function addDiscriminators<T extends object>(doc: T): T {
  const root = doc as unknown as JsonObject;
  const schemas = isObject(root.components) && isObject(root.components.schemas) ? root.components.schemas : {};
  const PREFIX = '#/components/schemas/';
  eachObject(
    root,
    (node) => {
      if (!Array.isArray(node.oneOf) || node.oneOf.length < 2) return;
      // A validation schema's discriminator (combinators.ts Discriminated) names its property but cannot carry the mapping (Ajv refuses one).
      const named = isObject(node.discriminator) && node.discriminator.mapping === undefined ? node.discriminator.propertyName : undefined;
      if (node.discriminator !== undefined && typeof named !== 'string') return;
      const branches = node.oneOf.map((branch) => (isObject(branch) && typeof branch.$ref === 'string' && branch.$ref.startsWith(PREFIX) ? branch.$ref : undefined));
      if (branches.some((ref) => ref === undefined)) return;
      const targets = branches.map((ref) => schemas[ref!.slice(PREFIX.length)]);
      const first = targets[0];
      if (!isObject(first) || !isObject(first.properties)) return;
      for (const name of typeof named === 'string' ? [named] : Object.keys(first.properties)) {
        const values = targets.map((t) => (isObject(t) && isObject(t.properties) && Array.isArray(t.required) && t.required.includes(name) ? onlyValue(t.properties[name]) : undefined));
        if (values.some((v) => v === undefined) || new Set(values).size !== values.length) continue;
        node.discriminator = { propertyName: name, mapping: Object.fromEntries(values.map((v, i) => [v!, branches[i]!])) };
        // Discriminated's own declaration of the tag is for the validator's messages; the mapping says it here, and
        // Redocly would read the members it declares as all the branches may have (unevaluatedProperties).
        if (typeof named === 'string') for (const key of ['type', 'required', 'properties']) delete node[key];
        return;
      }
    },
    new Set(['examples', 'example', 'default', 'const', 'enum']),
  );
  return doc;
}

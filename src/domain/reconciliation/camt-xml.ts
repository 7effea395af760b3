import type * as FastXmlParser from 'fast-xml-parser';
import { onFirstUse } from '../../on-first-use.js';
import { StatementFormatError } from './statement.js';

// Loaded with the first statement read (src/on-first-use.ts).
const fastXmlParser = onFirstUse<typeof FastXmlParser>('fast-xml-parser');

/** An element as fast-xml-parser gives it: attributes under `@_name`, children by local name, text as `#text`. */
export type XmlNode = Record<string, unknown>;

/** Far above a year of daily statements of a busy account (a few MB); past it the file is refused unread. */
export const MAX_STATEMENT_LENGTH = 32 * 1024 * 1024;

const CAMT053 = /^urn:iso:std:iso:20022:tech:xsd:camt\.053\.(\d{3}\.\d{2})$/;
const ISO20022 = /^urn:iso:std:iso:20022:tech:xsd:([a-z]{4}\.\d{3})\.(\d{3}\.\d{2})$/;

/** The file's text without a byte order mark, comments or processing instructions: where the root tag is found. */
const prologueless = (xml: string) => xml.replace(/<!--[\s\S]*?-->|<\?[\s\S]*?\?>/g, '');

/** The root element's local name and namespace, from its start tag (the parser drops namespace declarations). */
function rootOf(xml: string): { name: string; namespace: string } | undefined {
  const m = /^\s*<(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)((?:\s+[^>]*)?)>/.exec(prologueless(xml));
  if (!m) return undefined;
  const declaration = new RegExp(`\\sxmlns${m[1] ? `:${m[1]}` : ''}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(m[3] ?? '');
  return { name: m[2]!, namespace: (declaration?.[2] ?? declaration?.[3] ?? '').trim() };
}

/**
 * The file checked and parsed: not over MAX_STATEMENT_LENGTH, without a DOCTYPE (a camt file has none, and its
 * entity declarations are how an XML bomb expands), well-formed, its root a camt.053 Document of any 001.NN version.
 * Entities are not processed by the parser at all; `text` decodes XML's five and character references itself.
 */
export function readCamtDocument(xml: string): { version: string; document: XmlNode } {
  if (xml.length > MAX_STATEMENT_LENGTH) throw new StatementFormatError('too_large', `the file has ${xml.length} characters, over the ${MAX_STATEMENT_LENGTH} a statement may have`);
  const body = xml.replace(/^\uFEFF/, '');
  if (body.trim() === '' || !body.trimStart().startsWith('<')) throw new StatementFormatError('not_xml', 'the file is not XML');
  if (/<!(DOCTYPE|ENTITY)/i.test(body)) throw new StatementFormatError('doctype', 'the file declares a DOCTYPE or entities, which a camt.053 statement never does: refused unread');
  const valid = fastXmlParser().XMLValidator.validate(body);
  if (valid !== true) throw new StatementFormatError('not_xml', `line ${valid.err.line}: not well-formed XML (${valid.err.msg})`);
  const root = rootOf(body);
  const ns = root?.namespace ?? '';
  const version = CAMT053.exec(ns)?.[1];
  if (!root || root.name !== 'Document' || !version) {
    const other = ISO20022.exec(ns);
    const what = other ? `a ${other[1]}.${other[2]} message` : ns ? `namespace ${ns}` : `a <${root?.name ?? '?'}> without an ISO 20022 namespace`;
    throw new StatementFormatError('not_camt053', `not a camt.053 statement: ${what}`);
  }
  const parser = new (fastXmlParser().XMLParser)({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: false,
  });
  let parsed: XmlNode;
  try {
    parsed = parser.parse(body) as XmlNode;
  } catch (err) {
    // What the validator lets through and the parser still refuses: nesting deeper than any camt file's, for one.
    throw new StatementFormatError('not_xml', `not readable XML (${(err as Error).message.split('\n')[0]})`);
  }
  const document = children(parsed, 'Document')[0];
  if (!document) throw new StatementFormatError('not_camt053', 'not a camt.053 statement: no Document element');
  return { version, document };
}

/** Children of that name: none, one or several, always elements (an empty `<X/>` is an empty element). */
export function children(node: unknown, name: string): XmlNode[] {
  if (!node || typeof node !== 'object') return [];
  const v = (node as XmlNode)[name];
  const all = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return all.map((c) => (c !== null && typeof c === 'object' ? (c as XmlNode) : { '#text': c === null || c === undefined ? '' : String(c) }));
}

/** The first element down a path of names (`at(ntry, 'BkTxCd', 'Domn', 'Cd')`), or undefined. */
export function at(node: unknown, ...path: string[]): XmlNode | undefined {
  let here: XmlNode | undefined = node as XmlNode | undefined;
  for (const name of path) here = children(here, name)[0];
  return here;
}

/** XML's five named entities and character references, in one pass (`&amp;lt;` is `&lt;`, not `<`). */
function decode(raw: string): string {
  return raw.replace(/&(?:#([0-9]{1,7})|#x([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g, (whole, dec?: string, hex?: string, named?: string) => {
    if (named) return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[named]!;
    const code = dec ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** An element's text, decoded and trimmed ('' when absent or empty). */
export function text(node: unknown): string {
  if (node === undefined || node === null) return '';
  const t = typeof node === 'object' ? (node as XmlNode)['#text'] : node;
  return t === undefined || t === null ? '' : decode(String(t)).trim();
}

/** The text down a path of names ('' when absent). */
export const textAt = (node: unknown, ...path: string[]): string => text(at(node, ...path));

/** An attribute's value, decoded and trimmed ('' when absent). */
export function attr(node: unknown, name: string): string {
  if (!node || typeof node !== 'object') return '';
  const v = (node as XmlNode)[`@_${name}`];
  return v === undefined || v === null ? '' : decode(String(v)).trim();
}

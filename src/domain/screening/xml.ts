import type * as FastXmlParser from 'fast-xml-parser';
import { onFirstUse } from '../../on-first-use.js';
import { ListFormatError, type ListFile } from './formats.js';

// Loaded with the first list read (src/on-first-use.ts).
const fastXmlParser = onFirstUse<typeof FastXmlParser>('fast-xml-parser');

/** An element as fast-xml-parser gives it: attributes under `@_name`, children by name, text as `#text` or a string. */
export type XmlNode = Record<string, unknown>;

/** The text between comments and CDATA sections blanked out, line breaks kept: what tags and lines are counted in. */
function markup(text: string): string {
  return text.replace(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g, (m) => m.replace(/[^\n]/g, ' '));
}

/** The root element's local name (`export`, `CONSOLIDATED_LIST`), or undefined when there is none to read. */
export function rootElement(text: string): string | undefined {
  const body = markup(text.replace(/^\uFEFF/, ''))
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/i, '');
  const m = /^\s*<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(body);
  return m?.[2];
}

/**
 * A list's XML file, checked well-formed first (a malformed file is named with its line: `/lists/eu.xml line 12: not
 * well-formed XML (…)`), then parsed: attributes as `@_name`, namespaces' prefixes dropped, values left as text,
 * the elements named in `arrays` always arrays.
 */
export function parseXml(file: ListFile, arrays: readonly string[]): XmlNode {
  const text = file.text.replace(/^\uFEFF/, '');
  const valid = fastXmlParser().XMLValidator.validate(text);
  if (valid !== true) throw new ListFormatError(`${file.path} line ${valid.err.line}: not well-formed XML (${valid.err.msg})`);
  const always = new Set(arrays);
  const parser = new (fastXmlParser().XMLParser)({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    // Entities the file declares itself are not expanded: the lists declare none, and expansion is a way to blow up.
    processEntities: { enabled: true, maxEntityCount: 0 },
    isArray: (name) => always.has(name),
  });
  try {
    return parser.parse(text) as XmlNode;
  } catch (err) {
    throw new ListFormatError(`${file.path}: not readable XML (${(err as Error).message.split('\n')[0]})`);
  }
}

/** The line of each opening `<tag` in the file, in document order (the parser gives none): the n-th element's line. */
export function elementLines(text: string, tag: string): number[] {
  const lines: number[] = [];
  const re = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${tag}(?=[\\s/>])`, 'g');
  const body = markup(text.replace(/^\uFEFF/, ''));
  let line = 1;
  let at = 0;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    for (let i = body.indexOf('\n', at); i !== -1 && i < m.index; i = body.indexOf('\n', i + 1)) line++;
    at = m.index;
    lines.push(line);
  }
  return lines;
}

/** Children of that name: none, one or several, always an array of elements (an empty `<X/>` is an empty element). */
export function children(node: unknown, name: string): XmlNode[] {
  if (!node || typeof node !== 'object') return [];
  const v = (node as XmlNode)[name];
  const all = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return all.map((c) => (c !== null && typeof c === 'object' ? (c as XmlNode) : { '#text': c === null || c === undefined ? '' : String(c) }));
}

/** An element's text, trimmed ('' when absent or empty). */
export function text(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node !== 'object') return String(node).trim();
  const t = (node as XmlNode)['#text'];
  return t === undefined || t === null ? '' : String(t).trim();
}

/** The text of the first child of that name ('' when absent). */
export function childText(node: unknown, name: string): string {
  return text(children(node, name)[0]);
}

/** An attribute's value, trimmed ('' when absent). */
export function attr(node: unknown, name: string): string {
  if (!node || typeof node !== 'object') return '';
  const v = (node as XmlNode)[`@_${name}`];
  return v === undefined || v === null ? '' : String(v).trim();
}

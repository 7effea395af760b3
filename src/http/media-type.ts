import { ApiError } from '../domain/errors.js';

/** A Content-Type as RFC 9110 §8.3.1 writes it: names lower case, parameter values as sent (quoted-pairs undone). */
export interface MediaType {
  type: string;
  subtype: string;
  parameters: [name: string, value: string][];
}

// RFC 9110 §5.6.2 token and §5.6.4 quoted-string (qdtext and quoted-pair; obs-text is U+0080-U+00FF, as Node
// decodes header bytes as latin1). OWS is spaces and tabs.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"((?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*)"';
const TYPE = new RegExp(`[ \\t]*(${TOKEN})/(${TOKEN})`, 'y');
// parameters = *( OWS ";" OWS [ parameter ] ): empty parameters (";;") are allowed.
const PARAMETER = new RegExp(`[ \\t]*;[ \\t]*(?:(${TOKEN})=(?:(${TOKEN})|${QUOTED}))?`, 'y');
const END = /[ \t]*$/y;

/** Parses a Content-Type value; undefined when it is not a media type (then nothing of it is trusted). */
export function parseMediaType(value: string): MediaType | undefined {
  TYPE.lastIndex = 0;
  const head = TYPE.exec(value);
  if (!head) return undefined;
  const parameters: [string, string][] = [];
  let at = TYPE.lastIndex;
  for (;;) {
    PARAMETER.lastIndex = at;
    const param = PARAMETER.exec(value);
    if (!param || PARAMETER.lastIndex === at) break;
    at = PARAMETER.lastIndex;
    if (param[1] !== undefined) parameters.push([param[1].toLowerCase(), param[2] ?? param[3]!.replace(/\\(.)/gs, '$1')]);
  }
  END.lastIndex = at;
  if (!END.test(value)) return undefined;
  return { type: head[1]!.toLowerCase(), subtype: head[2]!.toLowerCase(), parameters };
}

/** Labels of UTF-8 a body may declare (RFC 8259 §8.1: JSON exchanged between systems is UTF-8), any case. */
const UTF8_LABELS = new Set(['utf-8', 'utf8']);

/** How much of a refused media type or charset the answer repeats. */
const MAX_ECHOED = 60;
const echoed = (text: string) => (text.length > MAX_ECHOED ? `${text.slice(0, MAX_ECHOED)}…` : text);

function refusal(detail: string, fieldDetail: string, code = 'invalid_value'): ApiError {
  return new ApiError('unsupported_media_type', detail, { errors: [{ pointer: '/content-type', code, detail: fieldDetail, in: 'header' }] });
}

/**
 * Why a request body's Content-Type is refused (a 415 naming the header), or undefined when it is JSON in UTF-8:
 * `application/json` or any `application/*+json`, type and subtype in any case, with any parameters, a charset
 * only if it is UTF-8 (any case, quoted or not). The one judge of request media types (json-body.ts calls it for
 * every route: the signed API, the operator API and the hosted pages).
 */
export function jsonContentTypeRefusal(value: string | undefined): ApiError | undefined {
  if (value === undefined) return refusal('The request has a body but no Content-Type; send Content-Type: application/json', 'is required: application/json', 'required');
  const media = parseMediaType(value);
  if (!media) return refusal('The Content-Type header is not a media type; send Content-Type: application/json', 'must be a media type such as application/json', 'invalid_format');
  const json = media.type === 'application' && (media.subtype === 'json' || (media.subtype.length > 5 && media.subtype.endsWith('+json')));
  if (!json) {
    const named = echoed(`${media.type}/${media.subtype}`);
    return refusal(`Request bodies must be application/json, not ${named}`, `must be application/json, not ${named}`);
  }
  const charset = media.parameters.find(([name, v]) => name === 'charset' && !UTF8_LABELS.has(v.toLowerCase()))?.[1];
  if (charset !== undefined) {
    const named = echoed(charset);
    return refusal(`Request bodies must be UTF-8 JSON, not charset ${named}; send charset=utf-8 or no charset`, `charset ${named} is not accepted: JSON bodies are UTF-8`);
  }
  return undefined;
}

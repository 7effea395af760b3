/** The JSON values the OpenAPI document transforms (openapi-*.ts) walk and rewrite in place. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Calls `visit` on every object of `node`, depth first, parents before children. Members named in `skip` (data such
 * as `examples`, not schemas or prose) are not entered.
 */
export function eachObject(node: Json, visit: (object: JsonObject) => void, skip: ReadonlySet<string> = new Set()): void {
  if (Array.isArray(node)) {
    for (const item of node) eachObject(item, visit, skip);
    return;
  }
  if (!isObject(node)) return;
  visit(node);
  for (const [key, value] of Object.entries(node)) if (!skip.has(key)) eachObject(value, visit, skip);
}

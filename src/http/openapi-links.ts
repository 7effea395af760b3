/**
 * Mentions of a guide in the OpenAPI documents' descriptions (`docs/members.md#quorum`) become Markdown links to
 * the page this server serves (/guides/members#quorum, pages/guides.ts), so no description points at a file of
 * the repository that a reader of /docs cannot open.
 */

import { eachObject, type JsonObject } from './openapi-json.js';

const MENTION = /(?<!\]\()(?<![[/\w])docs\/([a-z0-9-]+)\.md(#[a-z0-9-]+)?/g;

/** The description with each guide mention linked. */
export function linkGuideMentions(text: string): string {
  return text.replace(MENTION, (mention: string, name: string, anchor: string | undefined) => `[${mention}](/guides/${name}${anchor ?? ''})`);
}

/** Links the guide mentions of every `description` in `doc` (in place) and returns it. */
export function linkGuides<T extends object>(doc: T): T {
  eachObject(
    doc as unknown as JsonObject,
    (node) => {
      if (typeof node.description === 'string') node.description = linkGuideMentions(node.description);
    },
    // `examples` hold data; a description there is a value, not prose.
    new Set(['examples', 'example']),
  );
  return doc;
}

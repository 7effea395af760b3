import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ROOT_URL } from './root.js';

/**
 * The shell block of a page of ours (README.md, docs/…) between `<!-- name:start -->` and `<!-- name:end -->`,
 * exactly as documented: the suites that run a documented recipe run this text, so the page cannot drift from it.
 */
export function documentedBlock(page: string, name: string): string {
  const text = readFileSync(new URL(page, ROOT_URL), 'utf8');
  const block = new RegExp(`<!-- ${name}:start -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}:end -->`).exec(text);
  assert.ok(block, `${page} has the ${name} block`);
  return block[1]!;
}

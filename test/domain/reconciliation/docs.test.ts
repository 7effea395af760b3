import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { STATEMENT_EXCEPTION_TYPES } from '../../../src/domain/reconciliation/match-statement.js';
import { STATEMENT_FORMAT_CODES } from '../../../src/domain/reconciliation/statement.js';
import { ROOT_URL } from '../../harness/root.js';

/** docs/bank-statements.md's two tables name every refusal code and every exception type, and nothing else. */
describe('docs/bank-statements.md', () => {
  const page = readFileSync(new URL('docs/bank-statements.md', ROOT_URL), 'utf8');
  /** From the heading to the next heading (or the end). */
  const section = (heading: string) => {
    const start = page.indexOf(heading);
    assert.notEqual(start, -1, `no "${heading}"`);
    const end = page.indexOf('\n#', start + heading.length);
    return page.slice(start, end === -1 ? undefined : end);
  };
  const rows = (text: string) => [...text.matchAll(/^\| `([a-z_0-9]+)` \|/gm)].map((m) => m[1]!).sort();

  it('lists every StatementFormatError code', () => {
    assert.deepEqual(rows(section('### Refused files')), [...STATEMENT_FORMAT_CODES].sort());
  });

  it('lists every exception type', () => {
    assert.deepEqual(rows(section('### Exceptions')), [...STATEMENT_EXCEPTION_TYPES].sort());
  });
});

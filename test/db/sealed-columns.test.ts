import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { selectRows } from '../../src/db/database.js';
import { SEALED_COLUMNS } from '../../src/db/repositories/sealed-values.js';
import { openTestDatabase, type TestDatabase } from '../harness/db.js';

// `keys reseal` and `keys status` know the sealed values from SEALED_COLUMNS alone: a sealed column missing from it
// would stay under an old key, and dropping that key would make it unreadable.
describe('the table of sealed columns', () => {
  let test: TestDatabase;
  before(async () => {
    test = await openTestDatabase('pglite');
  });
  after(() => test.close());

  it('lists every column the schema calls sealed, and each listed column exists with its key and context columns', async () => {
    const columns = await selectRows<{ table_name: string; column_name: string; data_type: string }>(
      test.database.db,
      sql`select table_name, column_name, data_type from information_schema.columns where table_schema = 'public'`,
    );
    const named = columns.filter((c) => c.column_name.includes('sealed')).map((c) => `${c.table_name}.${c.column_name}`);
    const listed = SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`);
    assert.deepEqual(named.filter((n) => !listed.includes(n)).sort(), [], 'a sealed column missing from SEALED_COLUMNS');
    for (const c of SEALED_COLUMNS) {
      const type = columns.find((col) => col.table_name === c.table && col.column_name === c.column)?.data_type;
      assert.equal(type, c.kind === 'bytes' ? 'bytea' : 'text', `${c.table}.${c.column}`);
      for (const k of [...c.key, ...(c.contextColumns ?? [])]) assert.ok(columns.some((col) => col.table_name === c.table && col.column_name === k), `${c.table}.${k}`);
    }
  });
});

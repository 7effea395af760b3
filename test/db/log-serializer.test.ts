import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import pino from 'pino';
import type { Database } from '../../src/db/database.js';
import { loggerOptions, redactMessage, safeErrorMessage, serializeError, type SerializedError } from '../../src/logging.js';
import { backends } from '../harness/backends.js';
import { openTestDatabase } from '../harness/db.js';

const EMAIL = 'ottoline.brackwater@pii-probe.example';
const NAME = 'Ottoline Brackwater';
const SSN = '481-27-9354';

async function failure(database: Database, query: ReturnType<typeof sql>): Promise<DrizzleQueryError> {
  const err = await database.db.execute(query).then(
    () => assert.fail('the query was meant to fail'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof DrizzleQueryError, `drizzle wraps the driver's error: ${String(err)}`);
  return err;
}

function assertClean(serialized: unknown, ...secrets: string[]): void {
  const text = JSON.stringify(serialized);
  for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} leaked: ${text}`);
}

for (const backend of backends()) {
  describe(`the log error serializer on real database errors [${backend}]`, () => {
    let database: Database;
    let close: () => Promise<void>;

    before(async () => {
      ({ database, close } = await openTestDatabase(backend));
      await database.db.execute(sql`create table pii_probe (email text primary key, name text, ssn text)`);
      await database.db.execute(sql`insert into pii_probe values (${EMAIL}, ${NAME}, ${SSN})`);
    });
    after(() => close?.());

    it('a unique violation keeps SQLSTATE, constraint, table and frames; the key value, params and row are gone', async () => {
      const err = await failure(database, sql`insert into pii_probe values (${EMAIL}, ${NAME}, ${SSN})`);
      // What the raw error carries, so the test proves the serializer removed something.
      assert.ok(err.message.includes(EMAIL));
      assert.ok(String((err.cause as { detail?: string }).detail).includes(EMAIL));

      const out = serializeError(err) as SerializedError;
      assert.equal(out.type, 'DrizzleQueryError');
      assert.equal(out.message, 'Failed query: insert into pii_probe values ($1, $2, $3)\nparams: [redacted]');
      assert.match(out.stack, /^DrizzleQueryError: Failed query: [^\n]*\nparams: \[redacted\]\n\s+at /);
      const cause = out.cause as SerializedError;
      assert.equal(cause.type, 'DatabaseError');
      assert.equal(cause.code, '23505');
      assert.equal(cause.constraint, 'pii_probe_pkey');
      assert.equal(cause.table, 'pii_probe');
      assert.equal(cause.message, 'duplicate key value violates unique constraint "[redacted]"');
      assert.deepEqual(
        Object.keys(cause).filter((k) => ['params', 'detail', 'where', 'query', 'queryOptions', 'hint', 'internalQuery'].includes(k)),
        [],
      );
      assertClean(out, EMAIL, NAME, SSN, '9354', 'Brackwater');
    });

    it('invalid input syntax quotes the value in the message: redacted there and in the stack header', async () => {
      const err = await failure(database, sql`select ${NAME}::uuid, ${SSN}::text`);
      assert.ok(String((err.cause as Error).message).includes(NAME));
      const out = serializeError(err) as SerializedError;
      const cause = out.cause as SerializedError;
      assert.equal(cause.code, '22P02');
      assert.equal(cause.message, 'invalid input syntax for type uuid: "[redacted]"');
      assert.match(cause.stack, /^DatabaseError: invalid input syntax for type uuid: "\[redacted\]"\n\s+at /);
      assertClean(out, NAME, SSN, 'Ottoline', 'Brackwater');
      assert.equal(safeErrorMessage(err), 'Failed query: select $1::uuid, $2::text\nparams: [redacted]: invalid input syntax for type uuid: "[redacted]" (22P02)');
    });

    it('a logger built from loggerOptions (the worker’s way: pino itself) writes errors through the serializer', async () => {
      const err = await failure(database, sql`insert into pii_probe values (${EMAIL}, ${NAME}, ${SSN})`);
      const lines: string[] = [];
      const log = pino(loggerOptions('info'), { write: (line: string) => void lines.push(line) });
      log.error({ err }, 'insert failed');
      log.error(err);
      log.warn({ error: err, socialSecurityNumber: SSN, nested: { socialSecurityNumber: SSN } });
      assert.equal(lines.length, 3);
      const [withMessage, alone, underError] = lines.map((l) => JSON.parse(l));
      assert.equal(withMessage.err.cause.code, '23505');
      assert.equal(alone.err.cause.code, '23505');
      assert.match(alone.msg, /^Failed query: .*params: \[redacted\]/s);
      assert.equal(underError.error.cause.code, '23505');
      // pino's own fields (time, pid, hostname) are numbers and names of this run that may contain 9354 by chance.
      assertClean(
        lines.map((line) => Object.fromEntries(Object.entries(JSON.parse(line) as object).filter(([k]) => !['time', 'pid', 'hostname'].includes(k)))),
        EMAIL,
        NAME,
        SSN,
        '9354',
      );
    });
  });
}

describe('redactMessage', () => {
  const cases: [string, string][] = [
    ['Key (email)=(a@b.example) already exists.', 'Key (email)=([redacted]) already exists.'],
    ['Key (lower(email), name)=(a@b.example, O(dd) name) already exists.', 'Key (lower(email), name)=([redacted]) already exists.'],
    ['Failing row contains (1, Zed, 1990-01-01).', 'Failing row contains ([redacted]).'],
    ['value "99999999999" is out of range for type integer', 'value "[redacted]" is out of range for type integer'],
    ["invalid input value for enum kind: 'secret'", "invalid input value for enum kind: '[redacted]'"],
    ['unterminated "quote runs to the end', 'unterminated "[redacted]"'],
    ['escaped "a \\" b" quote', 'escaped "[redacted]" quote'],
    ["Failed query: select 'lit', \"col\" from t where x = $1\nparams: Zed,123-45-6789", "Failed query: select '[redacted]', \"col\" from t where x = $1\nparams: [redacted]"],
    ['Failed query: select $tag$secret$tag$\nparams: ', "Failed query: select '[redacted]'\nparams: [redacted]"],
    ['nothing quoted here', 'nothing quoted here'],
  ];
  for (const [input, expected] of cases) {
    it(JSON.stringify(input), () => assert.equal(redactMessage(input), expected));
  }

  it('non-errors: strings are redacted, other values say nothing, a cause loop ends', () => {
    assert.equal(serializeError('payout failed: "0xabc" rejected'), 'payout failed: "[redacted]" rejected');
    assert.deepEqual(serializeError(42), { type: 'number', message: '[redacted]', stack: '' });
    const a = new Error('a "x"') as Error & { cause?: unknown; body?: unknown; params?: unknown };
    a.cause = a;
    a.body = { ssn: SSN };
    a.params = [SSN];
    const out = serializeError(a) as SerializedError;
    assert.equal((out.cause as SerializedError).message, '[circular]');
    assertClean(out, SSN);
  });

  it('a deep cause chain is cut at five levels', () => {
    let err: Error = new Error('root');
    for (let i = 0; i < 20; i++) err = new Error(`level ${i}`, { cause: err });
    let depth = 0;
    for (let e: SerializedError | string | undefined = serializeError(err); typeof e === 'object'; e = e.cause) depth++;
    assert.ok(depth <= 7, `depth ${depth}`);
  });
});

describe('secret fields in log lines', () => {
  const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
  const written = (write: (log: pino.Logger) => void): Record<string, unknown>[] => {
    const lines: string[] = [];
    write(pino(loggerOptions('info'), { write: (line: string) => void lines.push(line) }));
    return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  };

  it('privateKey and socialSecurityNumber are censored at the top level and one level down in a call, and in a child’s bindings', () => {
    const lines = written((log) => {
      log.info({ privateKey: KEY, socialSecurityNumber: SSN, wallet: { privateKey: KEY, address: '0xabc' }, user: { socialSecurityNumber: SSN } }, 'call');
      const child = log.child({ privateKey: KEY, reqId: 'req-1' });
      child.info({ person: { socialSecurityNumber: SSN } }, 'from a child');
      child.info('%s', 'a format argument');
    });
    assert.equal(lines.length, 3);
    assertClean(lines, KEY, SSN);
    assert.deepEqual(lines[0]!.wallet, { privateKey: '[redacted]', address: '0xabc' }, 'the other fields stay');
    assert.equal(lines[1]!.privateKey, '[redacted]');
    assert.deepEqual([lines[1]!.reqId, lines[2]!.reqId], ['req-1', 'req-1'], 'every line of the child carries its bindings');
    assert.equal(lines[2]!.privateKey, '[redacted]');
  });

  it('no redact path starts with a wildcard: pino would run every request’s child logger through its redactor', () => {
    const { redact } = loggerOptions('info');
    const paths = Array.isArray(redact) ? redact : (redact?.paths ?? []);
    assert.ok(paths.length > 0);
    assert.deepEqual(paths.filter((path) => path.startsWith('*')), []);
  });

  it('the caller’s object is never changed, and an error one level down is left to the error serializer', () => {
    const wallet = { privateKey: KEY, label: 'hot' };
    const given = { wallet, count: 3 };
    const err = Object.assign(new Error('boom'), { privateKey: KEY });
    const [line, withError] = written((log) => {
      log.info(given, 'x');
      log.warn({ err }, 'failed');
    });
    assert.deepEqual(wallet, { privateKey: KEY, label: 'hot' }, 'censored in a copy');
    assert.deepEqual(line!.wallet, { privateKey: '[redacted]', label: 'hot' });
    assert.equal(line!.count, 3);
    assert.equal((withError!.err as { message?: string }).message, 'boom', 'still serialized as an error');
    assertClean(withError, KEY);
  });
});

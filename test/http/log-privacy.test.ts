import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { SerializedError } from '../../src/logging.js';
import { backends } from '../harness/backends.js';
import { californian, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenants } from '../harness/tenants.js';

/** Personal data no log line may carry, whatever failed. Distinctive, so a hit is never a coincidence. */
const PII = {
  firstName: 'Zephyrine',
  middleName: 'Quillabeth',
  lastName: 'Vandermolen',
  email: 'zephyrine.vandermolen@pii-probe.example',
  phone: '+12125557391',
  birthDate: '1979-03-17',
  socialSecurityNumber: '372-81-4826',
};
const SSN_DIGITS = '372814826';
const LAST_FOUR = '4826';

/** Every way the PII could show up in a log line (JSON-escaped or not, the SSN with or without dashes). */
function leaks(text: string): string[] {
  const found = Object.entries(PII)
    .filter(([, value]) => text.includes(value) || text.includes(JSON.stringify(value).slice(1, -1)))
    .map(([field]) => field);
  if (text.includes(SSN_DIGITS)) found.push('ssnDigits');
  // Four digits alone also occur inside timestamps, ids and durations: only a standalone "4826" is the SSN's.
  if (new RegExp(`(?<![\\w.:])${LAST_FOUR}(?![\\w.])`).test(text)) found.push('ssnLast4');
  return found;
}

/** A line the server's logger wrote (pino JSON). */
interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  err: SerializedError;
}

function findInChain(err: SerializedError | string | undefined, predicate: (e: SerializedError) => boolean): SerializedError | undefined {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 10; e = e.cause, depth++) if (predicate(e)) return e;
  return undefined;
}

for (const backend of backends()) {
  describe(`error logs carry no personal data [${backend}]`, () => {
    let server: TestServer;
    let acme: SeededIntegrator;
    const lines: string[] = [];
    const logged = () => lines.map((l) => JSON.parse(l) as LogLine);

    before(async () => {
      ({ server, tenants: [acme] } = await startTenants(backend, ['Acme'], {}, { logDestination: { write: (line: string) => void lines.push(line) } }));
    });
    after(() => server.close());

    it('the probe is a valid body: it is accepted while the table takes it, and its PII is seen nowhere in the logs', async () => {
      const res = await acme.client.post('/v1/submit/create-user', {
        userInfo: californian({ ...PII, email: `ok.${PII.email}` }),
        partnerSignedAgreementId: 'agr_probe',
        serviceTermsSignedAt: signedAt(),
      });
      assert.equal(res.status, 201, res.text);
      assert.ok(lines.length > 0, 'the server logs its requests');
      assert.deepEqual(leaks(lines.join('\n')), []);
    });

    it('a write PostgreSQL refuses is a 5xx problem, logged at error level with its SQLSTATE and without a trace of the row', async () => {
      await server.database.db.execute(sql.raw('alter table users add constraint pii_probe check (false) not valid'));
      try {
        lines.length = 0;
        const res = await acme.client.post('/v1/submit/create-user', {
          userInfo: californian(PII),
          partnerSignedAgreementId: 'agr_probe',
          serviceTermsSignedAt: signedAt(),
        });
        assert.ok(res.status >= 500 && res.status < 600, res.text);
        assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/problem+json');
        assert.match(res.body.requestId, /^req_/);
        assert.equal(res.body.code, 'internal_error');
        assert.ok(!/stack|\bat .*\(.*:\d+:\d+\)/.test(res.text), 'no stack in the response');
        assert.deepEqual(leaks(res.text), [], 'no PII in the response');

        const errorLines = logged().filter((l) => l.level >= 50 && l.requestId === res.body.requestId);
        assert.equal(errorLines.length, 1, lines.join('\n'));
        const line = errorLines[0]!;
        const database = findInChain(line.err, (e) => e.code === '23514');
        assert.ok(database, `the SQLSTATE is logged: ${JSON.stringify(line.err)}`);
        assert.equal(database.constraint, 'pii_probe');
        assert.equal(database.table, 'users');
        assert.match(line.err.stack, /\n\s+at /, 'the stack frames are kept');
        for (const dropped of ['params', 'detail', 'where', 'query', 'parameters', 'body', 'queryOptions', 'internalQuery']) {
          assert.equal(findInChain(line.err, (e) => dropped in e), undefined, `${dropped} is dropped`);
        }
        assert.match(line.err.message, /params: \[redacted\]/, 'a failed query says its parameters were withheld');

        assert.deepEqual(leaks(lines.join('\n')), [], `PII in the log:\n${lines.join('\n')}`);
        // The lookup above would pass on an empty log: the request really was logged, start to end.
        assert.ok(logged().some((l) => l.requestId === res.body.requestId && l.msg === 'request completed'));
      } finally {
        await server.database.db.execute(sql.raw('alter table users drop constraint pii_probe'));
      }
    });

    it('a value PostgreSQL cannot read (invalid input syntax) is logged without the value', async () => {
      // A uuid column fed a name: the message PostgreSQL writes quotes it.
      lines.length = 0;
      const failing = server.database.db.execute(sql`select ${PII.firstName + ' ' + PII.lastName}::uuid`);
      await assert.rejects(failing);
      const err = await failing.catch((e: unknown) => e);
      server.app.log.error({ err }, 'probe failed');
      server.app.log.error(err as Error);
      const probe = logged().filter((l) => l.level >= 50);
      assert.equal(probe.length, 2);
      assert.equal(findInChain(probe[0]!.err, (e) => e.code === '22P02')?.code, '22P02');
      assert.match(probe[1]!.msg, /\[redacted\]/, 'an error logged alone gets its redacted message as msg');
      assert.deepEqual(leaks(lines.join('\n')), [], `PII in the log:\n${lines.join('\n')}`);
    });
  });
}

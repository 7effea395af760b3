import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { run, UsageError } from '../../src/cli/admin-commands.js';
import { createClient } from '../harness/client.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { seededDataDir } from '../harness/pglite-template.js';
import { adminInProcess, runAdmin, startServerProcess } from '../harness/process.js';
import type { CaseHistoryEntry, ReviewItem } from '../harness/types.js';

describe('the review CLI', () => {
  // Already migrated: this file's subject is the review commands, not a first start (initdb in the CLI's process).
  const env: Record<string, string> = {};
  before(async () => {
    env.DATA_DIR = await seededDataDir('iapi-review-');
  });
  after(() => env.DATA_DIR && rmSync(env.DATA_DIR, { recursive: true, force: true }));

  it('lists the queue, shows a case and records an operator’s decisions', async () => {
    const integrator = JSON.parse((await runAdmin(['integrators', 'create', '--name', 'Acme'], env)).stdout);
    const operator = await adminInProcess(['operators', 'create', '--name', 'alice'], env);
    assert.equal(operator.code, 0, operator.stderr);
    assert.match(JSON.parse(operator.stdout).token, /^op_[A-Za-z0-9_-]{43}$/);
    assert.equal(JSON.parse(operator.stdout).role, 'reviewer', 'a reviewer unless told');
    // Roles (docs/back-office.md#roles), through the commands' own function (a process each would cost seconds):
    // a supervisor made, a reviewer promoted and demoted, a bad role refused before the database.
    assert.equal(((await run(['operators', 'create', '--name', 'sam', '--role', 'supervisor'], env)) as { role: string }).role, 'supervisor');
    assert.equal(((await run(['operators', 'set-role', '--name', 'alice', '--role', 'supervisor'], env)) as { role: string }).role, 'supervisor');
    assert.equal(((await run(['operators', 'set-role', '--name', 'alice', '--role', 'reviewer'], env)) as { role: string }).role, 'reviewer');
    await assert.rejects(run(['operators', 'set-role', '--name', 'alice', '--role', 'boss'], env), (err: Error) => err instanceof UsageError && /--role must be one of reviewer, supervisor/.test(err.message));
    await assert.rejects(run(['operators', 'set-role', '--name', 'nobody', '--role', 'supervisor'], env), UsageError);
    assert.deepEqual(
      ((await run(['operators', 'list'], env)) as { operators: { name: string; role: string }[] }).operators.map((o) => [o.name, o.role]).sort(),
      [['alice', 'reviewer'], ['sam', 'supervisor']],
    );

    // The integrator onboards a complete user through the API; the server then stops (PGlite: one process).
    const server = await startServerProcess(env);
    let userId: string;
    try {
      const client = createClient({ baseUrl: server.url, privateKey: integrator.privateKey });
      const created = await client.post('/v1/submit/create-individual-account', { userInfo: californian(), serviceTermsSignedAt: signedAt(), verificationDocuments: personDocs() });
      assert.equal(created.status, 201, created.text);
      userId = created.body.userId;
    } finally {
      assert.equal(await server.stop(), 0);
    }

    const queue = JSON.parse((await adminInProcess(['review', 'list'], env)).stdout);
    assert.deepEqual(
      queue.data.map((c: ReviewItem) => [c.subjectType, c.subjectId, c.integratorName]),
      [['user', userId, 'Acme']],
    );
    const shown = JSON.parse((await adminInProcess(['review', 'show', '--type', 'user', '--id', userId], env)).stdout);
    assert.equal(shown.record.userInfo.socialSecurityNumber, '***-**-6789');
    assert.equal(shown.history[0].action, 'created');

    const noReason = await adminInProcess(['review', 'reject', '--type', 'user', '--id', userId, '--operator', 'alice'], env);
    assert.equal(noReason.code, 65);
    assert.match(noReason.stderr, /reason is required/);
    const unknownOperator = await adminInProcess(['review', 'approve', '--type', 'user', '--id', userId, '--operator', 'mallory'], env);
    assert.equal(unknownOperator.code, 64);

    const approved = await adminInProcess(['review', 'approve', '--type', 'user', '--id', userId, '--operator', 'alice'], env);
    assert.equal(approved.code, 0, approved.stderr);
    assert.equal(JSON.parse(approved.stdout).verificationStatus, 'active');
    const again = await adminInProcess(['review', 'approve', '--type', 'user', '--id', userId, '--operator', 'alice'], env);
    assert.equal(again.code, 75, 'a refused move');
    assert.match(again.stderr, /invalid_state_transition/);

    const deactivated = await adminInProcess(['review', 'deactivate', '--type', 'user', '--id', userId, '--operator', 'alice', '--reason', 'account closed at the user’s request'], env);
    assert.equal(JSON.parse(deactivated.stdout).verificationStatus, 'inactive');
    const history = JSON.parse((await adminInProcess(['review', 'show', '--type', 'user', '--id', userId], env)).stdout).history;
    assert.deepEqual(
      history.map((h: CaseHistoryEntry) => [h.action, h.actorType, h.reason]).slice(1),
      [
        ['approve', 'operator', 'approve'],
        ['deactivate', 'operator', 'account closed at the user’s request'],
      ],
    );
    assert.equal((await adminInProcess(['review', 'show', '--type', 'user', '--id', '00000000-0000-7000-8000-000000000000'], env)).code, 66);
  });
});

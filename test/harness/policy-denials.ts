import assert from 'node:assert/strict';
import { and, eq } from 'drizzle-orm';
import { transactions } from '../../src/db/schema/index.js';
import type { ApiResponse } from './client.js';
import { eventsFor } from './db.js';
import type { SeededIntegrator, TestServer } from './server.js';

// Spending policies in the end-to-end tests (docs/policies.md): a policy created by the integrator, and the shape of
// a refusal (403 policy_denied, the transaction recorded failed and never signed, its events).

/** A policy over one account, in a second of its own (signed writes); its policyId. */
export async function createPolicy(server: TestServer, who: SeededIntegrator, accountId: string, rules: unknown[]): Promise<string> {
  server.clock.advance(1000);
  const res = await who.client.post('/v1/policies', { accountId, rules });
  assert.equal(res.status, 201, res.text);
  return res.body.policyId as string;
}

/** The transactions row of a transactionId of the integrator: its id (events are keyed by it) and signed bytes. */
export async function transactionRow(server: TestServer, who: SeededIntegrator, transactionId: string): Promise<{ id: string; signedRaw: string | null }> {
  const [row] = await server.database.db
    .select({ id: transactions.id, signedRaw: transactions.signedRaw })
    .from(transactions)
    .where(and(eq(transactions.integratorId, who.integratorId), eq(transactions.transactionId, transactionId)));
  assert.ok(row, `no transaction ${transactionId}`);
  return row;
}

/**
 * A refusal: 403 policy_denied naming the policy, the rule type and the transaction (`transactionId` when the caller
 * knows it), whose record reads failed (policy_denied) with no hash, its last events `lastEvents`. The transaction.
 */
export async function assertPolicyDenied(
  server: TestServer,
  who: SeededIntegrator,
  res: Pick<ApiResponse, 'status' | 'body' | 'text'>,
  expected: { policyId: string; ruleType: string; transactionId?: string; lastEvents?: string[] },
) {
  assert.equal(res.status, 403, res.text);
  assert.equal(res.body.code, 'policy_denied', res.text);
  assert.equal(res.body.policyId, expected.policyId, res.text);
  assert.equal(res.body.ruleType, expected.ruleType, res.text);
  assert.equal(typeof res.body.ruleIndex, 'number', res.text);
  if (expected.transactionId) assert.equal(res.body.transactionId, expected.transactionId, res.text);
  const record = (await who.client.get(`/v1/query/get-transaction?transactionId=${res.body.transactionId}`)).body;
  assert.equal(record.status, 'failed', JSON.stringify(record));
  assert.equal(record.failureReason, 'policy_denied');
  assert.equal(record.transactionHash, null, 'nothing was signed');
  const row = await transactionRow(server, who, res.body.transactionId);
  assert.equal(row.signedRaw, null, 'no signature was kept');
  const lastEvents = expected.lastEvents ?? ['transaction.created', 'transaction.status.changed', 'transaction.failed'];
  const events = await eventsFor(server.database, row.id);
  assert.deepEqual(events.map((e) => e.type).slice(-lastEvents.length), lastEvents);
  return record;
}

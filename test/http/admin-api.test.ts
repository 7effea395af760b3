import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { verificationTransitions } from '../../src/db/schema/index.js';
import { createOperator } from '../../src/domain/operators/operators.js';
import { adminRequest } from '../harness/admin.js';
import { backends } from '../harness/backends.js';
import { eventsFor } from '../harness/db.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator } from '../harness/server.js';
import { useTenants } from '../harness/tenants.js';
import type { DocumentView, EventData, ReviewItem, StatusChange } from '../harness/types.js';

const bytesOf = (dataUrl: string) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');

for (const backend of backends()) {
  describe(`admin API [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);
    let operator: { operatorId: string; name: string; token: string };
    let seq = 0;

    before(async () => {
      operator = await createOperator(server.database, 'Alice', server.clock.now());
    });

    const admin = (path: string, init: { method?: string; body?: unknown; token?: string | null } = {}) =>
      adminRequest(server, init.method ?? 'GET', path, { token: init.token === undefined ? operator.token : init.token, body: init.body });

    /** An under_review user of `integrator`, created a second after the previous one. */
    const underReview = async (integrator: SeededIntegrator = acme) => {
      server.clock.advance(1000);
      const verificationDocuments = personDocs();
      const created = await integrator.client.post('/v1/submit/create-individual-account', {
        userInfo: californian({ email: `admin-${++seq}@example.com` }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments,
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.verificationStatus, 'under_review');
      return { ...created.body, sent: verificationDocuments } as { userId: string; accountId: string; verificationDocuments: DocumentView[]; sent: { document: string }[] };
    };

    it('refuses a request without a bearer token, with a wrong token, and with an integrator signature', async () => {
      const none = await admin('/admin/api/reviews', { token: null });
      assert.equal(none.status, 401);
      assert.match(none.headers.get('content-type')!, /application\/problem\+json/);
      assert.equal(none.body.code, 'missing_auth_headers');
      assert.equal(none.body.status, 401);

      const wrong = await admin('/admin/api/reviews', { token: 'op_not-a-real-token' });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.body.code, 'unknown_credential');
      assert.equal((await admin('/admin/api/whoami', { token: 'garbage' })).status, 401);

      const signed = await acme.client.get('/admin/api/reviews');
      assert.equal(signed.status, 401);
      assert.equal(signed.body.code, 'missing_auth_headers');
    });

    it('does not accept the operator token on /v1 routes', async () => {
      const response = await fetch(`${server.url}/v1/integrator/whoami`, { headers: { authorization: `Bearer ${operator.token}` } });
      assert.equal(response.status, 401);
      assert.equal(((await response.json()) as { code: string }).code, 'missing_auth_headers');
    });

    it('whoami names the operator', async () => {
      const me = await admin('/admin/api/whoami');
      assert.equal(me.status, 200);
      assert.deepEqual(me.body, { operatorId: operator.operatorId, name: 'Alice', role: 'reviewer' });
      assert.equal(me.headers.get('cache-control'), 'no-store');
    });

    it('lists the under_review queue oldest first, filters by integrator and pages with nextCursor', async () => {
      const pager = await server.seedIntegrator('Pager');
      const first = await underReview(pager);
      const second = await underReview(pager);
      const third = await underReview(pager);
      const mine = await underReview(acme);

      const page1 = await admin(`/admin/api/reviews?integratorId=${pager.integratorId}&limit=2`);
      assert.equal(page1.status, 200);
      assert.deepEqual(
        page1.body.data.map((r: ReviewItem) => r.subjectId),
        [first.userId, second.userId],
      );
      assert.equal(page1.body.hasMore, true);
      assert.equal(typeof page1.body.nextCursor, 'string');
      const item = page1.body.data[0];
      assert.deepEqual([item.subjectType, item.integratorId, item.integratorName, item.verificationStatus, item.name], ['user', pager.integratorId, 'Pager', 'under_review', 'Maria Garcia']);

      const page2 = await admin(`/admin/api/reviews?integratorId=${pager.integratorId}&limit=2&startingAfter=${page1.body.nextCursor}`);
      assert.deepEqual(
        page2.body.data.map((r: ReviewItem) => r.subjectId),
        [third.userId],
      );
      assert.equal(page2.body.hasMore, false);
      assert.equal(page2.body.nextCursor, null);

      // Without the filter every integrator's records are in the queue, oldest first.
      const all = await admin('/admin/api/reviews');
      const ids = all.body.data.map((r: ReviewItem) => r.subjectId);
      assert.ok(ids.indexOf(first.userId) < ids.indexOf(third.userId));
      assert.ok(ids.indexOf(third.userId) < ids.indexOf(mine.userId));
      const since = all.body.data.map((r: ReviewItem) => r.since);
      assert.deepEqual(since, [...since].sort());

      assert.equal((await admin('/admin/api/reviews?limit=0')).status, 400);
      assert.equal((await admin('/admin/api/reviews?limit=101')).status, 400);
      assert.equal((await admin('/admin/api/reviews?startingAfter=nonsense')).body.errors[0].pointer, '/startingAfter');
    });

    it('shows a case with its record, history and document content URLs; serves the exact document bytes', async () => {
      const user = await underReview();
      const found = await admin(`/admin/api/reviews/user/${user.userId}`);
      assert.equal(found.status, 200);
      assert.equal(found.body.subjectId, user.userId);
      assert.equal(found.body.integratorId, acme.integratorId);
      assert.equal(found.body.verificationStatus, 'under_review');
      assert.equal(found.body.record.userId, user.userId);
      assert.deepEqual(found.body.history[0].action, 'created');
      assert.equal(found.body.history[0].actorType, 'integrator');

      const docs = found.body.record.verificationDocuments as { documentId: string; documentType: string; contentUrl: string }[];
      assert.equal(docs.length, 2);
      for (const d of docs) assert.equal(d.contentUrl, `/admin/api/documents/${d.documentId}/content`);

      for (const [i, sent] of user.sent.entries()) {
        const documentId = user.verificationDocuments[i]!.documentId;
        const content = await admin(docs.find((d) => d.documentId === documentId)!.contentUrl);
        assert.equal(content.status, 200);
        assert.equal(content.headers.get('content-type'), sent.document.slice(5, sent.document.indexOf(';')));
        assert.equal(content.headers.get('content-disposition'), 'inline');
        assert.equal(content.headers.get('cache-control'), 'no-store');
        assert.equal(content.headers.get('x-content-type-options'), 'nosniff');
        assert.ok(content.bytes.equals(bytesOf(sent.document)), 'the exact bytes the integrator uploaded');
      }

      assert.equal((await admin(`/admin/api/documents/${crypto.randomUUID()}/content`)).status, 404);
      assert.equal((await admin(`/admin/api/documents/${docs[0]!.documentId}/content`, { token: null })).status, 401);
    });

    it('approves a case as the operator: active, an event and an audited transition', async () => {
      const user = await underReview();
      const approved = await admin(`/admin/api/reviews/user/${user.userId}/decisions`, { method: 'POST', body: { decision: 'approve' } });
      assert.equal(approved.status, 200, JSON.stringify(approved.body));
      assert.deepEqual(approved.body, { subjectType: 'user', subjectId: user.userId, verificationStatus: 'active' });

      // The status change, then (same transaction) the requirements it moved: nothing pending verification any more.
      const decided = await eventsFor(server.database, user.userId);
      assert.deepEqual(decided.slice(-2).map((e) => e.type), ['user.verification_status.changed', 'requirements.updated']);
      const last = decided.at(-2)!;
      assert.equal((last.data as EventData<StatusChange>).object.verificationStatus, 'active');
      const rows = await server.database.db.select().from(verificationTransitions).where(eq(verificationTransitions.subjectId, user.userId));
      const row = rows.at(-1)!;
      assert.deepEqual([row.fromStatus, row.toStatus, row.actorType, row.actorId], ['under_review', 'active', 'operator', operator.operatorId]);

      // A move the state machine refuses.
      const refused = await admin(`/admin/api/reviews/user/${user.userId}/decisions`, { method: 'POST', body: { decision: 'approve' } });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.code, 'invalid_state_transition');
      const history = (await admin(`/admin/api/reviews/user/${user.userId}`)).body.history;
      assert.deepEqual([history.at(-1).actorType, history.at(-1).actorId], ['operator', operator.operatorId]);
    });

    it('requires reasons to reject, and validates the decision body', async () => {
      const user = await underReview();
      const url = `/admin/api/reviews/user/${user.userId}/decisions`;
      const noReason = await admin(url, { method: 'POST', body: { decision: 'reject' } });
      assert.equal(noReason.status, 400);
      assert.equal(noReason.body.code, 'validation_failed');
      assert.equal(noReason.body.errors[0].pointer, '/reasons');

      assert.equal((await admin(url, { method: 'POST', body: { decision: 'reject', reasons: [] } })).status, 400);
      assert.equal((await admin(url, { method: 'POST', body: { decision: 'maybe' } })).body.errors[0].pointer, '/decision');
      assert.equal((await admin(url, { method: 'POST', body: { decision: 'reject', reasons: ['x'.repeat(501)] } })).status, 400);

      const rejected = await admin(url, { method: 'POST', body: { decision: 'reject', reasons: ['Document forged'] } });
      assert.equal(rejected.status, 200);
      assert.equal(rejected.body.verificationStatus, 'rejected');
      const [row] = (await server.database.db.select().from(verificationTransitions).where(eq(verificationTransitions.subjectId, user.userId))).slice(-1);
      assert.deepEqual([row!.actorType, row!.reason], ['operator', 'Document forged']);
    });

    it('request_resubmission flags a document the integrator then sees', async () => {
      const user = await underReview();
      const passport = user.verificationDocuments.find((d) => d.documentType === 'passport')!;
      const asked = await admin(`/admin/api/reviews/user/${user.userId}/decisions`, {
        method: 'POST',
        body: { decision: 'request_resubmission', reasons: ['Passport photo unreadable'], documents: [passport.documentId] },
      });
      assert.equal(asked.status, 200);
      assert.equal(asked.body.verificationStatus, 'resubmission_requested');
      const details = await acme.client.get(`/v1/query/get-user-details?userId=${user.userId}`);
      assert.equal(details.body.verificationStatus, 'resubmission_requested');
      assert.deepEqual(details.body.verificationDocuments.find((d: DocumentView) => d.documentId === passport.documentId).errors, ['Passport photo unreadable']);
    });

    it('answers an unknown case with 404 and a bad subject with 400', async () => {
      const id = crypto.randomUUID();
      const missing = await admin(`/admin/api/reviews/user/${id}`);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'not_found');
      assert.equal((await admin(`/admin/api/reviews/entity/${id}/decisions`, { method: 'POST', body: { decision: 'approve' } })).status, 404);
      assert.equal((await admin(`/admin/api/reviews/robot/${id}`)).status, 400);
      assert.equal((await admin('/admin/api/reviews/user/not-a-uuid')).status, 400);
    });
  });
}

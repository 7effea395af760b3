import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { verificationTransitions } from '../../src/db/schema/index.js';
import { decideAsOperator } from '../../src/domain/cases/operator-decisions.js';
import { applyTransition } from '../../src/domain/verification/apply-transition.js';
import { asOperator, useOperators, type AdminResponse } from '../harness/admin.js';
import { backends } from '../harness/backends.js';
import { californian, personDocs, signedAt } from '../harness/fixtures.js';
import { useTenants } from '../harness/tenants.js';

/*
 * Issue 51, item 5: four eyes leave no sanctions hit open (docs/back-office.md#four-eyes). Black box through
 * /admin/api with two reviewers and two supervisors, on both databases: no approval, direct, proposed, confirmed,
 * reactivated, by the CLI's function or the sandbox's simulation, lets a customer in past a hit without its
 * disposition; a confirmation takes a note; whoever found a hit false does not approve; the proposer withdraws,
 * and each refusal is worded for whoever gets it; the queue keeps an active customer with an open hit, and a
 * search finds a customer whatever its status.
 */

interface Operator {
  operatorId: string;
  name: string;
  token: string;
  role: 'reviewer' | 'supervisor';
}

interface Hit {
  hitId: string;
  status: string;
  list: string;
  entryNumber: string;
}

interface Case {
  verificationStatus: string;
  hits: Hit[];
  findings: { code: string; severity: string }[];
  approval: { path: string; detail: string | null };
  proposal: { decision: string } | null;
  timeline: { kind: string; actor: { name: string | null }; summary: string }[];
}

for (const backend of backends()) {
  describe(`four eyes leave no hit open [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);
    const { alice, bob, sam, sue } = useOperators(server);
    const as = (operator: Operator, method: string, path: string, body?: unknown): Promise<AdminResponse> => asOperator(server, operator, method, path, body);

    async function underReview(overrides: Record<string, unknown> = {}): Promise<{ userId: string; accountId: string }> {
      server.clock.advance(1000);
      const created = await acme.client.post('/v1/submit/create-individual-account', {
        userInfo: californian({ email: `fe-${randomUUID()}@example.com`, ...overrides }),
        serviceTermsSignedAt: signedAt(),
        verificationDocuments: personDocs(),
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.verificationStatus, 'under_review', created.text);
      return { userId: created.body.userId as string, accountId: created.body.accountId as string };
    }

    /** Maria Fernanda Sanctioned, born on the listed day: an error-level hit (watchlist_match), open. */
    const LISTED = { firstName: 'Maria', middleName: 'Fernanda', lastName: 'Sanctioned', birthDate: '1975-03-02' };
    async function listed(overrides: Record<string, unknown> = {}) {
      const { userId, accountId } = await underReview({ ...LISTED, ...overrides });
      const c = await getCase(userId);
      const open = c.hits.filter((h) => h.status === 'open');
      assert.equal(open.length, 1, JSON.stringify(c.hits));
      return { userId, accountId, hit: open[0]!, path: `/reviews/user/${userId}` };
    }
    const label = (hit: Hit) => `${hit.list} entry ${hit.entryNumber}`;

    async function getCase(userId: string, operator: Operator = alice): Promise<Case> {
      const res = await as(operator, 'GET', `/reviews/user/${userId}`);
      assert.equal(res.status, 200, res.text);
      return res.body as Case;
    }
    const statusOf = async (userId: string) => (await getCase(userId)).verificationStatus;
    const approvals = (userId: string) =>
      server.database.db
        .select()
        .from(verificationTransitions)
        .where(and(eq(verificationTransitions.subjectId, userId), eq(verificationTransitions.toStatus, 'active')));
    const dispose = async (operator: Operator, hit: Hit, disposition: 'true_match' | 'false_positive', note = 'checked against the passport') => {
      const res = await as(operator, 'POST', `/screening-hits/${hit.hitId}/disposition`, { disposition, note });
      assert.equal(res.status, 200, res.text);
    };
    const refused = (res: AdminResponse, status: number, code: string, detail?: RegExp) => {
      assert.equal(res.status, status, res.text);
      assert.equal(res.body.code, code, res.text);
      if (detail) assert.match(res.body.detail, detail);
    };
    async function queue(query: string, operator: Operator = alice): Promise<string[]> {
      const res = await as(operator, 'GET', `/reviews?limit=100${query ? `&${query}` : ''}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.hasMore, false);
      return (res.body.data as { subjectId: string }[]).map((i) => i.subjectId);
    }

    describe('no approval leaves a hit undecided', () => {
      it('the reported case: a proposal over an open hit is refused, and so is a confirmation once a hit is raised after it', async () => {
        const { userId, hit, path } = await listed();
        // Proposing the approval with the hit open: 409 naming the hit, nothing written.
        refused(await as(alice, 'POST', `${path}/proposal`, { decision: 'approve', reasons: ['another person'] }), 409, 'open_hits_remain', new RegExp(label(hit)));
        assert.equal((await getCase(userId)).proposal, null);

        // Decided first, by the reviewer: then proposed.
        await dispose(alice, hit, 'false_positive', 'born in Ohio; another person');
        assert.equal((await as(alice, 'POST', `${path}/proposal`, { decision: 'approve', reasons: ['the hit is a false positive'] })).status, 201);
        // The integrator changes the nationality while the proposal waits: a new hit is raised, open.
        server.clock.advance(1000);
        assert.equal((await acme.client.patch('/v1/submit/update-user', { userId, userInfo: { nationality: 'VEN' } })).status, 200);
        const fresh = (await getCase(userId)).hits.find((h) => h.status === 'open');
        assert.ok(fresh, 'a new open hit');

        // One click with no note was enough: now a note is required, and the open hit refuses the confirmation.
        const noNote = await as(sam, 'POST', `${path}/proposal/confirm`, {});
        assert.equal(noNote.status, 400, noNote.text);
        assert.equal(noNote.body.errors[0].pointer, '/note');
        refused(await as(sam, 'POST', `${path}/proposal/confirm`, { note: 'agreed' }), 409, 'open_hits_remain', new RegExp(`${label(fresh)}.*then confirm the proposal`));
        assert.equal(await statusOf(userId), 'under_review');
        assert.deepEqual(await approvals(userId), []);

        await dispose(bob, fresh, 'false_positive', 'Venezuelan passport of another year');
        const confirmed = await as(sam, 'POST', `${path}/proposal/confirm`, { note: 'both hits checked: not the listed person' });
        assert.equal(confirmed.status, 200, confirmed.text);
        assert.equal(confirmed.body.verificationStatus, 'active');
        const c = await getCase(userId);
        assert.deepEqual(
          c.hits.filter((h) => h.status === 'open'),
          [],
          'active, every hit decided',
        );
        assert.match(c.timeline.find((t) => t.kind === 'confirmed')!.summary, /both hits checked/);
        const [approval] = await approvals(userId);
        assert.match(approval!.reason!, /proposed by Alice, confirmed by Sam: both hits checked/);
      });

      it('a direct approval over an open hit is 409 open_hits_remain for every operator, before the four-eyes answer', async () => {
        const { userId, hit, path } = await listed();
        for (const operator of [alice, bob, sam, sue]) {
          refused(await as(operator, 'POST', `${path}/decisions`, { decision: 'approve' }), 409, 'open_hits_remain', new RegExp(`1 screening hit has no disposition \\(${label(hit)}\\)`));
        }
        assert.equal(await statusOf(userId), 'under_review');
        assert.deepEqual(await approvals(userId), []);
      });

      it('the CLI’s decision and the sandbox’s simulation refuse it too', async () => {
        const { userId, accountId, path } = await listed();
        // `review approve` calls decideAsOperator with the named operator (src/cli/admin-commands.ts).
        await assert.rejects(
          decideAsOperator(server.database, { subjectType: 'user', subjectId: userId }, 'approve', {}, sam, server.policy, server.clock.now()),
          (err: Error & { code?: string }) => err.code === 'open_hits_remain',
        );
        const simulated = await acme.client.post('/v1/sandbox/simulate-verification', { accountId, outcome: 'approve' });
        assert.equal(simulated.status, 409, simulated.text);
        assert.equal(simulated.body.code, 'open_hits_remain');
        assert.equal(await statusOf(userId), 'under_review');
        assert.deepEqual(await approvals(userId), []);
        // Other outcomes are not held back: a rejection lets nobody in.
        assert.equal((await as(alice, 'POST', `${path}/decisions`, { decision: 'reject', reasons: ['listed'] })).status, 200);
      });

      it('a reactivation over a hit raised on an active customer is refused until the hit is decided', async () => {
        const { userId, hit, path } = await listed();
        await dispose(sue, hit, 'false_positive');
        assert.equal((await as(bob, 'POST', `${path}/decisions`, { decision: 'approve' })).status, 200);
        // The customer becomes Venezuelan: a new hit, a case opened on the active customer; an operator deactivates.
        server.clock.advance(1000);
        assert.equal((await acme.client.patch('/v1/submit/update-user', { userId, userInfo: { nationality: 'VEN' } })).status, 200);
        const fresh = (await getCase(userId)).hits.find((h) => h.status === 'open')!;
        assert.equal((await as(alice, 'POST', `${path}/decisions`, { decision: 'deactivate', reasons: ['a new hit'] })).body.verificationStatus, 'inactive');

        for (const operator of [alice, sam]) refused(await as(operator, 'POST', `${path}/decisions`, { decision: 'reactivate' }), 409, 'open_hits_remain', new RegExp(`${label(fresh)}.*before the record is reactivated`));
        refused(await as(alice, 'POST', `${path}/proposal`, { decision: 'reactivate', reasons: ['fine'] }), 409, 'open_hits_remain');
        assert.equal(await statusOf(userId), 'inactive');

        await dispose(bob, fresh, 'false_positive', 'the Venezuelan passport is another person’s');
        refused(await as(bob, 'POST', `${path}/decisions`, { decision: 'reactivate' }), 403, 'four_eyes_same_operator');
        const reactivated = await as(alice, 'POST', `${path}/decisions`, { decision: 'reactivate' });
        assert.equal(reactivated.status, 200, reactivated.text);
        assert.equal(reactivated.body.verificationStatus, 'active');
      });
    });

    describe('whoever found a hit false does not approve', () => {
      it('the reported case: a reviewer marks an error-level hit false and is refused the approval; another operator approves', async () => {
        const { userId, hit, path } = await listed();
        assert.ok((await getCase(userId)).findings.some((f) => f.code === 'watchlist_match' && f.severity === 'error'), 'name and birth date agree');
        await dispose(alice, hit, 'false_positive');
        const own = await as(alice, 'POST', `${path}/decisions`, { decision: 'approve' });
        refused(own, 403, 'four_eyes_same_operator', new RegExp(`Alice marked ${label(hit)} a false positive.*propose the approval`));
        assert.equal(await statusOf(userId), 'under_review');
        assert.deepEqual(await approvals(userId), []);

        assert.deepEqual((await getCase(userId, alice)).approval, { path: 'proposal', detail: `you marked ${label(hit)} a false positive` });
        assert.deepEqual((await getCase(userId, bob)).approval, { path: 'direct', detail: null });
        const approved = await as(bob, 'POST', `${path}/decisions`, { decision: 'approve' });
        assert.equal(approved.status, 200, approved.text);
        assert.equal((await approvals(userId))[0]!.actorId, bob.operatorId);
      });

      it('a name-only hit too; the disposer proposes, and a supervisor who marked a hit false does not confirm', async () => {
        const { userId } = await underReview({ firstName: 'Wei Min', middleName: undefined, lastName: 'Zhang' });
        const path = `/reviews/user/${userId}`;
        const [hit] = (await getCase(userId)).hits;
        assert.ok(hit && hit.status === 'open', 'a name-only hit');
        await dispose(sam, hit, 'false_positive', 'Californian, born 1990; the listed Zhang is Chinese');
        refused(await as(sam, 'POST', `${path}/decisions`, { decision: 'approve' }), 403, 'four_eyes_same_operator');
        assert.equal((await as(alice, 'POST', `${path}/proposal`, { decision: 'approve', reasons: ['Sam’s disposition holds'] })).status, 201);
        refused(await as(sam, 'POST', `${path}/proposal/confirm`, { note: 'agreed' }), 403, 'four_eyes_same_operator', /another supervisor confirms the proposal/);
        assert.equal(await statusOf(userId), 'under_review');
        const confirmed = await as(sue, 'POST', `${path}/proposal/confirm`, { note: 'agreed' });
        assert.equal(confirmed.status, 200, confirmed.text);
        assert.equal((await approvals(userId))[0]!.actorId, sue.operatorId);
      });

      it('a true match, a warning-level one included, takes two operators', async () => {
        const { userId } = await underReview({ firstName: 'Wei Min', middleName: undefined, lastName: 'Zhang' });
        const [hit] = (await getCase(userId)).hits;
        await dispose(bob, hit!, 'true_match', 'the same person: a licence allows the account');
        refused(await as(bob, 'POST', `/reviews/user/${userId}/decisions`, { decision: 'approve' }), 409, 'four_eyes_required', new RegExp(`1 screening hit marked a true match \\(${label(hit!)}\\)`));
        assert.equal((await getCase(userId, alice)).approval.path, 'proposal');
        assert.deepEqual(await approvals(userId), []);
      });
    });

    describe('the proposer withdraws, and each refusal is worded for whoever gets it', () => {
      let pairs = 0;
      async function proposedBy(operator: Operator): Promise<{ userId: string; path: string }> {
        const ssn = `4${String(++pairs).padStart(2, '0')}-45-6789`;
        await underReview({ socialSecurityNumber: ssn, firstName: 'Ines' });
        const { userId } = await underReview({ socialSecurityNumber: ssn, firstName: 'Ingrid' });
        const path = `/reviews/user/${userId}`;
        assert.deepEqual((await getCase(userId)).approval, { path: 'proposal', detail: 'the case has 1 error finding (ssn_shared)' });
        assert.equal((await as(operator, 'POST', `${path}/proposal`, { decision: 'approve', reasons: ['twins, checked'] })).status, 201);
        return { userId, path };
      }

      it('a reviewer withdraws her own proposal; nobody else can, each told what they can do instead', async () => {
        const { userId, path } = await proposedBy(alice);
        refused(await as(bob, 'POST', `${path}/proposal/withdraw`), 403, 'not_the_proposer', /a supervisor confirms or overturns it/);
        refused(await as(sam, 'POST', `${path}/proposal/withdraw`), 403, 'not_the_proposer', /as a supervisor, confirm or overturn it/);

        // A direct decision while it waits: 409 proposal_pending, in words for each operator.
        const mine = await as(alice, 'POST', `${path}/decisions`, { decision: 'reject', reasons: ['second thoughts'] });
        refused(mine, 409, 'proposal_pending', /You proposed to approve this case: withdraw your proposal/);
        assert.doesNotMatch(mine.body.detail, /confirm or overturn the proposal/);
        const another = await as(bob, 'POST', `${path}/decisions`, { decision: 'reject', reasons: ['no'] });
        refused(another, 409, 'proposal_pending', /Alice proposed to approve this case: it waits for a supervisor to confirm or overturn it, or for Alice to withdraw it/);
        refused(await as(sam, 'POST', `${path}/decisions`, { decision: 'reject', reasons: ['no'] }), 409, 'proposal_pending', /Alice proposed to approve this case: confirm or overturn the proposal/);
        // Her confirmation: a supervisor is required, and she may withdraw.
        refused(await as(alice, 'POST', `${path}/proposal/confirm`, { note: 'mine' }), 403, 'supervisor_required', /withdraw it/);

        server.clock.advance(1000);
        const withdrawn = await as(alice, 'POST', `${path}/proposal/withdraw`);
        assert.equal(withdrawn.status, 200, withdrawn.text);
        assert.deepEqual(withdrawn.body, { proposal: null });
        const c = await getCase(userId);
        assert.equal(c.proposal, null);
        assert.equal(c.verificationStatus, 'under_review');
        const item = c.timeline.find((t) => t.kind === 'withdrawn');
        assert.deepEqual(item && [item.actor.name, item.summary], ['Alice', 'Alice withdrew the proposal to approve']);
        assert.ok(!(await queue('flag=proposal_pending')).includes(userId));
        refused(await as(alice, 'POST', `${path}/proposal/withdraw`), 409, 'no_proposal');
        const rejected = await as(alice, 'POST', `${path}/decisions`, { decision: 'reject', reasons: ['the SSN is another person’s'] });
        assert.equal(rejected.status, 200, rejected.text);
      });

      it('a supervisor who proposed is told to withdraw, not to confirm; the route is in the operators’ OpenAPI document', async () => {
        const { path } = await proposedBy(sam);
        refused(await as(sam, 'POST', `${path}/proposal/confirm`, { note: 'mine' }), 403, 'four_eyes_same_operator', /another supervisor must confirm it; you may withdraw it/);
        refused(await as(sam, 'POST', `${path}/proposal`, { decision: 'reject', reasons: ['no'] }), 409, 'proposal_pending', /You proposed/);
        assert.equal((await as(sam, 'POST', `${path}/proposal/withdraw`)).status, 200);

        const document = await fetch(`${server.url}/admin/openapi.json`).then((r) => r.json() as Promise<{ paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> }>);
        const operation = document.paths['/admin/api/reviews/{subjectType}/{subjectId}/proposal/withdraw']?.post;
        assert.equal(operation?.operationId, 'withdrawProposal');
        assert.ok(operation && ['200', '403', '404', '409'].every((s) => s in operation.responses), JSON.stringify(operation?.responses));
      });
    });

    describe('the queue and its search', () => {
      it('an active customer with an open hit stays in the default queue; a search finds a customer whatever its status', async () => {
        // As an approval before this fix left it: active, the hit open (the state machine's transition alone).
        const { userId, hit } = await listed({ lastName: 'Sanctioned', email: `legacy-${randomUUID()}@example.com` });
        await server.database.db.transaction((tx) =>
          applyTransition(tx, { type: 'user', id: userId, integratorId: acme.integratorId, status: 'under_review' }, { type: 'approve' }, { actorType: 'operator', reason: 'approved before issue 51' }, server.clock.now()),
        );
        assert.equal(await statusOf(userId), 'active');
        assert.ok((await queue('')).includes(userId), 'in the default queue while its hit is open');
        assert.ok((await queue('flag=open_hits')).includes(userId));
        await dispose(alice, hit, 'true_match', 'the listed person');
        assert.ok(!(await queue('')).includes(userId), 'out of it once the hit is decided (the rest is a decision)');

        const tag = `Findme${randomUUID().slice(0, 6)}`;
        const rejected = (await underReview({ lastName: tag })).userId;
        assert.equal((await as(alice, 'POST', `/reviews/user/${rejected}/decisions`, { decision: 'reject', reasons: ['fraud'] })).status, 200);
        const approved = (await underReview({ lastName: tag })).userId;
        assert.equal((await as(alice, 'POST', `/reviews/user/${approved}/decisions`, { decision: 'approve' })).status, 200);
        for (const q of [tag, userId]) {
          const found = await queue(`q=${encodeURIComponent(q)}`);
          assert.ok(q === userId ? found.includes(userId) : found.includes(rejected) && found.includes(approved), `q=${q}: ${found.join(', ')}`);
        }
        assert.deepEqual((await queue(`q=${tag}&status=rejected`)).sort(), [rejected]);
        assert.deepEqual(await queue(`q=${tag}&status=under_review`), []);
      });
    });
  });
}

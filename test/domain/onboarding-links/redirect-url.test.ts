import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redirectProblem } from '../../../src/domain/onboarding-links/links.js';
import { personRequirements } from '../../../src/domain/requirements/requirements.js';

// The rules the HTTP tests (a sandbox server) cannot reach: production's redirectUrl, and requirements per status.

describe('onboarding link redirectUrl', () => {
  it('https everywhere; http only to this machine, only in the sandbox', () => {
    const code = (url: string, sandbox: boolean) => redirectProblem(url, sandbox)?.code ?? 'ok';
    assert.equal(code('https://app.example.com/done', false), 'ok');
    assert.equal(code('https://app.example.com/done', true), 'ok');
    for (const local of ['http://localhost:3000/back', 'http://127.0.0.1/back', 'http://[::1]:8080/']) {
      assert.equal(code(local, true), 'ok', local);
      assert.equal(code(local, false), 'https_required', `${local} in production`);
    }
    assert.equal(code('http://app.example.com/done', true), 'https_required');
    assert.equal(code('http://localhost.example.com/', true), 'https_required');
    for (const bad of ['javascript:alert(1)', 'ftp://example.com/x', 'not a url', '//app.example.com']) assert.equal(code(bad, true), 'invalid_url', bad);
    assert.equal(redirectProblem('http://x.example/', false)?.pointer, '/redirectUrl');
  });
});

describe('person requirements by status', () => {
  const complete = { birthDate: '1990-01-01', nationality: 'USA', residentialAddress: { country: 'USA' } } as never;
  const docs = [{ documentType: 'passport', errors: null }, { documentType: 'proof_of_address', errors: null }];
  const all = ['birthDate', 'nationality', 'residentialAddress', 'document.identity', 'document.proofOfAddress'];
  it('pending verification in review, nothing once active, nothing owed when rejected', () => {
    assert.deepEqual(personRequirements(complete, docs, 'under_review').pendingVerification, all);
    assert.deepEqual(personRequirements(complete, docs, 'active'), { currentlyDue: [], pastDue: [], pendingVerification: [], errors: [] });
    assert.deepEqual(personRequirements({} as never, [], 'rejected'), { currentlyDue: [], pastDue: [], pendingVerification: [], errors: [] });
  });
  it('a refused document is due (past due while a resubmission is asked), with its reasons, until a newer one meets it', () => {
    const refused = [{ documentType: 'passport', errors: ['Blurred', 'Cut off'] }, docs[1]!];
    assert.deepEqual(personRequirements(complete, refused, 'resubmission_requested'), {
      currentlyDue: ['document.identity'],
      pastDue: ['document.identity'],
      pendingVerification: [],
      errors: [
        { requirement: 'document.identity', reason: 'Blurred' },
        { requirement: 'document.identity', reason: 'Cut off' },
      ],
    });
    assert.deepEqual(personRequirements(complete, [...refused, { documentType: 'national_id_front', errors: null }, { documentType: 'national_id_back', errors: null }], 'under_review').errors, []);
  });
});

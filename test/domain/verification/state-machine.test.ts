import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { VERIFICATION_STATUSES, type VerificationStatus } from '../../../src/db/schema/verification-status.js';
import { ACTION_TYPES, transition, type Action, type Subject, type TransitionResult } from '../../../src/domain/verification/state-machine.js';

// The expected lifecycle, written out cell by cell (docs/verification.md has the diagram). Nothing here is derived
// from the module: a change to the transition table must change a cell below.

const S = {
  NS: 'not_started',
  IN: 'init',
  AI: 'awaiting_information',
  AP: 'awaiting_associated_person_information',
  UR: 'under_review',
  RR: 'resubmission_requested',
  AC: 'active',
  IA: 'inactive',
  RJ: 'rejected',
} as const satisfies Record<string, VerificationStatus>;
type Abbrev = keyof typeof S;

/** The column order of every table below. */
const COLUMNS: readonly Abbrev[] = ['NS', 'IN', 'AI', 'AP', 'UR', 'RR', 'AC', 'IA', 'RJ'];

/** Every action variant worth telling apart: the row labels of every table below. */
const VARIANTS = {
  'data_changed complete': { type: 'data_changed', complete: true },
  'data_changed incomplete': { type: 'data_changed', complete: false },
  'request_verification': { type: 'request_verification' },
  'request_verification ready': { type: 'request_verification', personsReady: true },
  'request_verification not ready': { type: 'request_verification', personsReady: false },
  'persons_ready': { type: 'persons_ready' },
  'persons_not_ready': { type: 'persons_not_ready' },
  'approve': { type: 'approve' },
  'reject': { type: 'reject' },
  'request_resubmission': { type: 'request_resubmission' },
  'resubmitted': { type: 'resubmitted' },
  'deactivate': { type: 'deactivate' },
  'reactivate': { type: 'reactivate' },
  'reopen': { type: 'reopen' },
} as const satisfies Record<string, Action>;
type Variant = keyof typeof VARIANTS;

/**
 * One row per variant: `aims` is the status a refusal names as `to`; then one cell per `COLUMNS` status (the
 * `from`): the status the action moves to, or '-' for a refusal (409 invalid_state_transition, from → aims).
 */
type Row = [aims: Abbrev, ...cells: (Abbrev | '-')[]];
type Table = Record<Variant, Row>;

// Users and associated persons: no associated-person stage, no persons_* events.
const PERSON_TABLE: Table = {
  //                                 aims   NS    IN    AI    AP    UR    RR    AC    IA    RJ
  'data_changed complete':          ['IN', 'IN', 'IN', 'IN', '-',  '-',  '-',  '-',  '-',  '-'],
  'data_changed incomplete':        ['AI', 'AI', 'AI', 'AI', '-',  '-',  '-',  '-',  '-',  '-'],
  'request_verification':           ['UR', '-',  'UR', '-',  '-',  '-',  '-',  '-',  '-',  '-'],
  'request_verification ready':     ['UR', '-',  'UR', '-',  '-',  '-',  '-',  '-',  '-',  '-'],
  'request_verification not ready': ['UR', '-',  'UR', '-',  '-',  '-',  '-',  '-',  '-',  '-'],
  'persons_ready':                  ['UR', '-',  '-',  '-',  '-',  '-',  '-',  '-',  '-',  '-'],
  'persons_not_ready':              ['AP', '-',  '-',  '-',  '-',  '-',  '-',  '-',  '-',  '-'],
  'approve':                        ['AC', '-',  '-',  '-',  '-',  'AC', '-',  '-',  '-',  '-'],
  'reject':                         ['RJ', '-',  '-',  '-',  '-',  'RJ', '-',  '-',  '-',  '-'],
  'request_resubmission':           ['RR', '-',  '-',  '-',  '-',  'RR', '-',  '-',  '-',  '-'],
  'resubmitted':                    ['UR', '-',  '-',  '-',  '-',  '-',  'UR', '-',  '-',  '-'],
  'deactivate':                     ['IA', '-',  '-',  '-',  '-',  '-',  '-',  'IA', '-',  '-'],
  'reactivate':                     ['AC', '-',  '-',  '-',  '-',  '-',  '-',  '-',  'AC', '-'],
  'reopen':                         ['UR', '-',  '-',  '-',  '-',  '-',  '-',  '-',  '-',  'UR'],
};

const EXPECTED: Record<Subject, Table> = {
  user: PERSON_TABLE,
  associated_person: PERSON_TABLE,
  // Entities: request_verification waits in AP unless every associated person is ready; persons_* move AP <-> UR.
  // Every other row is the persons' (the review and after it: the same moves for all three).
  entity: {
    ...PERSON_TABLE,
    //                                 aims   NS    IN    AI    AP    UR    RR    AC    IA    RJ
    'request_verification':           ['AP', '-',  'AP', '-',  '-',  '-',  '-',  '-',  '-',  '-'],
    'request_verification not ready': ['AP', '-',  'AP', '-',  '-',  '-',  '-',  '-',  '-',  '-'],
    'persons_ready':                  ['UR', '-',  '-',  '-',  'UR', '-',  '-',  '-',  '-',  '-'],
    'persons_not_ready':              ['AP', '-',  '-',  '-',  '-',  'AP', '-',  '-',  '-',  '-'],
  },
};

const SUBJECTS: readonly Subject[] = ['user', 'associated_person', 'entity'];
const VARIANT_NAMES = Object.keys(VARIANTS) as Variant[];
const ALL_ACTIONS: readonly Action[] = Object.values(VARIANTS);

type Case = { subject: Subject; from: VerificationStatus; variant: Variant; action: Action; expected: TransitionResult };

function cases(): Case[] {
  const out: Case[] = [];
  for (const subject of SUBJECTS) {
    for (const variant of VARIANT_NAMES) {
      const [aims, ...cells] = EXPECTED[subject][variant];
      assert.equal(cells.length, COLUMNS.length, `${subject} / ${variant}: one cell per status`);
      COLUMNS.forEach((column, i) => {
        const cell = cells[i]!;
        const from = S[column];
        const action = VARIANTS[variant];
        const expected: TransitionResult = cell === '-' ? { ok: false, from, to: S[aims], action: action.type } : { ok: true, to: S[cell] };
        out.push({ subject, from, variant, action, expected });
      });
    }
  }
  return out;
}

const ALL_CASES = cases();

function describeResult(r: TransitionResult): string {
  return r.ok ? `ok → ${r.to}` : `refused ${r.from} → ${r.to} (${r.action})`;
}

describe('verification state machine: the full table', () => {
  it('the tables cover every status, every action type and every subject exactly once', () => {
    assert.deepEqual(new Set(COLUMNS.map((c) => S[c])), new Set(VERIFICATION_STATUSES));
    assert.equal(COLUMNS.length, VERIFICATION_STATUSES.length);
    assert.deepEqual(new Set(ALL_ACTIONS.map((a) => a.type)), new Set(ACTION_TYPES));
    // 3 subjects × 9 statuses × 14 variants. A new status or action variant changes this number on purpose.
    assert.equal(ALL_CASES.length, 378);
    assert.equal(new Set(ALL_CASES.map((c) => `${c.subject}|${c.from}|${c.variant}`)).size, 378);
  });

  for (const subject of SUBJECTS) {
    it(`${subject}: every (status, action) gives exactly the tabled result`, () => {
      const wrong: string[] = [];
      for (const c of ALL_CASES.filter((x) => x.subject === subject)) {
        const actual = transition(c.subject, c.from, c.action);
        try {
          assert.deepEqual(actual, c.expected);
        } catch {
          wrong.push(`${c.from} + ${c.variant}: expected ${describeResult(c.expected)}, got ${describeResult(actual)}`);
        }
      }
      assert.deepEqual(wrong, []);
    });
  }

  it('tabled counts: allowed moves per subject (no-ops included)', () => {
    const allowed = (s: Subject) => ALL_CASES.filter((c) => c.subject === s && c.expected.ok).length;
    // data_changed: 3 + 3; request_verification: 3; approve/reject/request_resubmission/resubmitted/deactivate/reactivate/reopen: 7.
    assert.equal(allowed('user'), 16);
    assert.equal(allowed('associated_person'), 16);
    // … plus persons_ready and persons_not_ready.
    assert.equal(allowed('entity'), 18);
  });
});

describe('verification state machine: invariants', () => {
  it('a no-op (ok with to === from) is only a data change while pre-review', () => {
    for (const subject of SUBJECTS) {
      for (const from of VERIFICATION_STATUSES) {
        for (const action of ALL_ACTIONS) {
          const r = transition(subject, from, action);
          if (r.ok && r.to === from) {
            assert.equal(action.type, 'data_changed', `${subject} ${from} ${action.type}`);
            assert.ok(['not_started', 'init', 'awaiting_information'].includes(from));
          }
        }
      }
    }
  });

  it('rejected is final except for reopen, which goes back to under_review', () => {
    for (const subject of SUBJECTS) {
      for (const action of ALL_ACTIONS) {
        const r = transition(subject, 'rejected', action);
        if (action.type === 'reopen') assert.deepEqual(r, { ok: true, to: 'under_review' });
        else assert.equal(r.ok, false, `${subject} rejected + ${action.type}`);
      }
    }
  });

  it('no action moves a user or an associated person into awaiting_associated_person_information', () => {
    for (const subject of ['user', 'associated_person'] as const) {
      for (const from of VERIFICATION_STATUSES) {
        for (const action of ALL_ACTIONS) {
          const r = transition(subject, from, action);
          assert.ok(!(r.ok && r.to === 'awaiting_associated_person_information'), `${subject} ${from} + ${action.type}`);
        }
      }
    }
  });

  it('only approve and reactivate reach active, only from under_review and inactive', () => {
    for (const subject of SUBJECTS) {
      for (const from of VERIFICATION_STATUSES) {
        for (const action of ALL_ACTIONS) {
          const r = transition(subject, from, action);
          if (r.ok && r.to === 'active' && from !== 'active') {
            assert.ok((action.type === 'approve' && from === 'under_review') || (action.type === 'reactivate' && from === 'inactive'));
          }
        }
      }
    }
  });

  it('every status is reachable from not_started (entities), every one but the persons stage (users, persons)', () => {
    const reachable = (subject: Subject): Set<VerificationStatus> => {
      const seen = new Set<VerificationStatus>(['not_started']);
      const queue: VerificationStatus[] = ['not_started'];
      for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
        for (const action of ALL_ACTIONS) {
          const r = transition(subject, s, action);
          if (r.ok && !seen.has(r.to)) {
            seen.add(r.to);
            queue.push(r.to);
          }
        }
      }
      return seen;
    };
    assert.deepEqual(reachable('entity'), new Set(VERIFICATION_STATUSES));
    const withoutPersons = new Set(VERIFICATION_STATUSES.filter((s) => s !== 'awaiting_associated_person_information'));
    assert.deepEqual(reachable('user'), withoutPersons);
    assert.deepEqual(reachable('associated_person'), withoutPersons);
  });
});

describe('verification state machine (property-based)', () => {
  const subject = fc.constantFrom<Subject>(...SUBJECTS);
  const statuses: ReadonlySet<string> = new Set(VERIFICATION_STATUSES);

  it('walks of allowed actions from not_started stay in VERIFICATION_STATUSES and reach active only via under_review', () => {
    // Each step picks one of the actions allowed at the current status, so walks go deep instead of stalling.
    fc.assert(
      fc.property(subject, fc.array(fc.nat(), { maxLength: 60 }), (subj, picks) => {
        let status: VerificationStatus = 'not_started';
        let reviewed = false;
        for (const pick of picks) {
          const moves = ALL_ACTIONS.map((a) => transition(subj, status, a)).filter((r): r is Extract<TransitionResult, { ok: true }> => r.ok);
          assert.ok(moves.length > 0, `${subj} is stuck in ${status}`);
          status = moves[pick % moves.length]!.to;
          assert.ok(statuses.has(status), `unknown status ${status}`);
          if (status === 'under_review') reviewed = true;
          if (status === 'active') assert.ok(reviewed, 'active without under_review');
          if (subj !== 'entity') assert.notEqual(status, 'awaiting_associated_person_information');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('any action sequence: a refusal names the current status and the action, and leaves the status as it was', () => {
    const action = fc.constantFrom(...ALL_ACTIONS);
    fc.assert(
      fc.property(subject, fc.array(action, { maxLength: 60 }), (subj, actions) => {
        let status: VerificationStatus = 'not_started';
        let reviewed = false;
        for (const a of actions) {
          const before: VerificationStatus = status;
          const frozen = Object.freeze({ ...a });
          const r = transition(subj, status, frozen);
          if (r.ok) {
            status = r.to;
          } else {
            assert.equal(r.from, before);
            assert.equal(r.action, a.type);
            assert.ok(statuses.has(r.to), `refusal names unknown status ${r.to}`);
            // Asking again from the same status is refused again, the same way: nothing moved.
            assert.deepEqual(transition(subj, before, frozen), r);
          }
          assert.ok(statuses.has(status));
          if (status === 'under_review') reviewed = true;
          if (status === 'active') assert.ok(reviewed, 'active without under_review');
          if (subj !== 'entity') assert.notEqual(status, 'awaiting_associated_person_information');
        }
      }),
      { numRuns: 500 },
    );
  });
});

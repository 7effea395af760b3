import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { customersAfter, lockSetting, writeSetting, type CustomerTable } from '../../db/repositories/rescreen.js';
import { recordedHits } from '../../db/repositories/screening-hits.js';
import type { VerificationStatus } from '../../db/schema/index.js';
import type { EntityInfo, UserInfo } from '../onboarding/types.js';
import { entitySubject, personSubject } from '../screening/customer-subject.js';
import { MATCHER_VERSION } from '../screening/engine.js';
import type { ScreeningLists } from '../screening/lists.js';
import { screenAndRecord } from '../screening/subject-hits.js';
import { openCaseOn } from './open-case.js';

/** Where the re-screening of every customer stands: for which version of the lists, and how far it got. */
interface Progress {
  version: string;
  table: CustomerTable | 'done';
  after: string | null;
}

const SETTING = 'screening_rescreen';
const ORDER: CustomerTable[] = ['user', 'associated_person', 'entity'];

/**
 * One fingerprint of every list in force, the threshold and the matcher's version: when any changes (a list reloaded,
 * SCREENING_THRESHOLD set otherwise, an upgrade that matches names otherwise), everyone is screened again.
 */
export function listsVersion(lists: ScreeningLists): string {
  return createHash('sha256')
    .update(JSON.stringify({ matcher: MATCHER_VERSION, threshold: lists.threshold, lists: lists.versions().map((v) => [v.label, v.version]) }))
    .digest('hex')
    .slice(0, 32);
}

export interface BatchOutcome {
  screened: number;
  raised: number;
  opened: number;
  done: boolean;
}

/**
 * Screens the next `size` customers against the lists in force and records what is new, in one transaction with the
 * progress: a new hit on an active customer opens a case (docs/back-office.md#cases-on-active-customers); others wait
 * in their case. The progress row is locked, so processes sharing a database take batches in turn; a kill loses at
 * most the batch under way, which the next start does again.
 */
export async function rescreenBatch(db: Database, lists: ScreeningLists, size: number, at: Date): Promise<BatchOutcome> {
  const version = listsVersion(lists);
  return db.db.transaction(async (tx) => {
    const stored = JSON.parse(await lockSetting(tx, SETTING, JSON.stringify({ version: '', table: 'done', after: null }), at)) as Progress;
    const progress: Progress = stored.version === version ? stored : { version, table: ORDER[0]!, after: null };
    const outcome: BatchOutcome = { screened: 0, raised: 0, opened: 0, done: progress.table === 'done' };
    if (progress.table === 'done') return outcome;
    const table = progress.table;
    const rows = await customersAfter(tx, table, progress.after, size);
    const recorded = await recordedHits(tx, rows.map((r) => r.id));
    for (const row of rows) {
      const subject = { type: table, id: row.id, integratorId: row.integrator_id, status: row.verification_status as VerificationStatus };
      const screened = table === 'entity' ? entitySubject(row.info as unknown as EntityInfo) : personSubject(row.info as unknown as UserInfo);
      const { raised } = await screenAndRecord(tx, subject, screened, lists, at, recorded.get(row.id));
      outcome.raised += raised.length;
      if (raised.length > 0 && subject.status === 'active' && (await openCaseOn(tx, subject, 'screening_hit', at, { hitIds: raised.map((h) => h.id), listsVersion: version }))) outcome.opened++;
    }
    outcome.screened = rows.length;
    const next: Progress = rows.length === size ? { version, table, after: rows.at(-1)!.id } : { version, table: ORDER[ORDER.indexOf(table) + 1] ?? 'done', after: null };
    outcome.done = next.table === 'done';
    await writeSetting(tx, SETTING, JSON.stringify(next));
    return outcome;
  });
}

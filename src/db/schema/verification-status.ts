import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** The spec's verificationStatus values, shared by users, associated persons and entities. */
export const VERIFICATION_STATUSES = [
  'not_started',
  'init',
  'under_review',
  'awaiting_associated_person_information',
  'awaiting_information',
  'resubmission_requested',
  'active',
  'rejected',
  'inactive',
] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const statusCheck = (column: AnyPgColumn): SQL =>
  sql`${column} in (${sql.raw(VERIFICATION_STATUSES.map((s) => `'${s}'`).join(', '))})`;

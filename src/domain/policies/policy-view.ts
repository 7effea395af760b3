import type { PolicyRow } from '../../db/repositories/policies.js';
import type { Rule } from './rules.js';

/** A policy as the API returns it and its events carry. */
export interface PolicyView {
  policyId: string;
  /** Null: every account of the integrator. */
  accountId: string | null;
  rules: Rule[];
  createdAt: string;
  /** Null while in force. */
  deletedAt: string | null;
}

export function toPolicyView(row: PolicyRow): PolicyView {
  return {
    policyId: row.id,
    accountId: row.accountId,
    rules: row.rules as Rule[],
    createdAt: row.createdAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
}

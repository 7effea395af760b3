import type { MemberListRow, MemberRow } from '../../db/repositories/members.js';
import type { Role } from './roles.js';

/** A member as list-members and the member events show it (docs/members.md). */
export interface MemberView {
  accountId: string;
  userId: string;
  role: Role;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toMemberView(row: MemberRow & { userInfo?: unknown }): MemberView {
  const info = (row.userInfo ?? {}) as { firstName?: string; lastName?: string; email?: string };
  return {
    accountId: row.accountId,
    userId: row.userId,
    role: row.role,
    firstName: info.firstName ?? null,
    lastName: info.lastName ?? null,
    email: info.email ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type { MemberListRow };

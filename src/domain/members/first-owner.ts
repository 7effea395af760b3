import type { Executor } from '../../db/database.js';
import { findAccountByEntity } from '../../db/repositories/accounts.js';
import { countRoles, insertMember, representativeUsers } from '../../db/repositories/members.js';
import { findUser } from '../../db/repositories/users.js';
import { normalizeName } from '../names.js';
import { recordMemberEvent } from './member-events.js';
import { toMemberView } from './member-view.js';

interface NameAndEmail {
  firstName?: string;
  lastName?: string;
}

const fullName = (info: unknown) => normalizeName(`${(info as NameAndEmail).firstName ?? ''} ${(info as NameAndEmail).lastName ?? ''}`);

/**
 * The first-owner rule (docs/members.md#first-owner): while an entity account has no owner, a representative of
 * the entity who is also a user of the same integrator (same email, case-insensitive, and the same first and last
 * name) becomes its owner. Exactly one such user, or nobody: two candidates are left to an owner invitation.
 * Runs in the caller's transaction whenever a representative is added or changed.
 */
export async function adoptRepresentativeAsOwner(tx: Executor, integratorId: string, entityId: string, at: Date): Promise<void> {
  const account = await findAccountByEntity(tx, entityId);
  if (!account || account.integratorId !== integratorId) return;
  if ((await countRoles(tx, account.id)).owner > 0) return;
  const candidates = (await representativeUsers(tx, integratorId, entityId)).filter((c) => fullName(c.userInfo) === fullName(c.representativeInfo));
  const userIds = [...new Set(candidates.map((c) => c.userId))];
  if (userIds.length !== 1) return;
  const member = await insertMember(tx, { integratorId, accountId: account.id, userId: userIds[0]!, role: 'owner', createdAt: at, updatedAt: at });
  if (!member) return;
  const user = await findUser(tx, integratorId, member.userId);
  await recordMemberEvent(tx, integratorId, 'member.added', toMemberView({ ...member, userInfo: user?.userInfo }), at);
}

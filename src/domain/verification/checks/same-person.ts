import type { Executor } from '../../../db/database.js';
import { findAccountByEntity } from '../../../db/repositories/accounts.js';
import { findPerson } from '../../../db/repositories/entities.js';
import { findMember } from '../../../db/repositories/members.js';
import { findUser } from '../../../db/repositories/users.js';
import type { UserInfo } from '../../onboarding/types.js';
import { normalizeName } from '../../names.js';

// One person behind two records (docs/verification.md#one-person-two-records): a company's representative is a user
// (who acts for the company as a member of its account) and, often, also one of its associated persons, each with
// its own documents. Their passport on both is not a duplicate; the same file for anyone else still is.

/** A record a duplicate check found: a user, an associated person or an entity of the integrator. */
export interface RecordRef {
  type: 'user' | 'associated_person' | 'entity';
  id: string;
}

const identity = (info: UserInfo) => `${normalizeName(`${info.firstName ?? ''} ${info.lastName ?? ''}`)}|${info.birthDate ?? ''}`;

/**
 * True when `a` and `b` are a user and an associated person of an entity whose account that user is a member of,
 * with the same first and last name (normalizeName, as the first-owner rule compares them) and the same birth date.
 * Two persons, two users, another entity's person, or an entity are never the same person.
 */
export async function samePerson(db: Executor, integratorId: string, a: RecordRef, b: RecordRef): Promise<boolean> {
  const pair = a.type === 'user' && b.type === 'associated_person' ? [a.id, b.id] : a.type === 'associated_person' && b.type === 'user' ? [b.id, a.id] : undefined;
  if (!pair) return false;
  const [userId, personId] = pair as [string, string];
  const [user, person] = [await findUser(db, integratorId, userId), await findPerson(db, integratorId, personId)];
  if (!user || !person || identity(user.userInfo as UserInfo) !== identity(person.userInfo as UserInfo)) return false;
  if (!(person.userInfo as UserInfo).birthDate) return false;
  const account = await findAccountByEntity(db, person.entityId);
  return account !== undefined && (await findMember(db, integratorId, account.id, userId)) !== undefined;
}

/** The matches that are another person's (the subject's own other record left out), in their order. */
export async function otherPeople<T>(db: Executor, integratorId: string, subject: RecordRef, matches: readonly T[], refOf: (match: T) => RecordRef): Promise<T[]> {
  const others: T[] = [];
  for (const match of matches) if (!(await samePerson(db, integratorId, subject, refOf(match)))) others.push(match);
  return others;
}

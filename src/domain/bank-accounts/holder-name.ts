import { normalizeName } from '../names.js';

/** The names a bank account's holder may carry: the KYC name of an individual, the legal or trade name of an entity. */
export function expectedHolderNames(owner: { userInfo: unknown; entityInfo: unknown }): string[] {
  const names: string[] = [];
  const user = owner.userInfo as { firstName?: unknown; middleName?: unknown; lastName?: unknown } | null;
  if (user && typeof user.firstName === 'string' && typeof user.lastName === 'string') {
    names.push(`${user.firstName} ${user.lastName}`);
    if (typeof user.middleName === 'string' && user.middleName.trim()) names.push(`${user.firstName} ${user.middleName} ${user.lastName}`);
  }
  const entity = owner.entityInfo as { businessLegalName?: unknown; businessTradeName?: unknown } | null;
  for (const name of [entity?.businessLegalName, entity?.businessTradeName]) if (typeof name === 'string' && name.trim()) names.push(name);
  return names;
}

/** True when the holder name equals one of the expected names once normalised (case, accents, punctuation, word order). */
export function holderNameMatches(holder: string, expected: string[]): boolean {
  const key = normalizeName(holder);
  return key !== '' && expected.some((name) => normalizeName(name) === key);
}

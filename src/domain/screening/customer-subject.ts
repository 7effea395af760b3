import type { EntityInfo, UserInfo } from '../onboarding/types.js';
import type { ScreeningSubject } from './types.js';

/** A person as screened: the full name as given, the birth date, nationality and country of residence. */
export function personSubject(info: UserInfo): ScreeningSubject {
  const name = [info.firstName, info.middleName, info.lastName].filter(Boolean).join(' ');
  return { kind: 'person', names: name ? [name] : [], familyName: info.lastName ?? null, birthDate: info.birthDate ?? null, countries: [info.nationality, info.residentialAddress?.country] };
}

/** A company as screened: its legal and trade names, and the countries of its registered and physical addresses. */
export function entitySubject(info: EntityInfo): ScreeningSubject {
  const names = [info.businessLegalName, info.businessTradeName].filter((n): n is string => !!n && n.trim() !== '');
  return { kind: 'entity', names, countries: [info.registeredAddress?.country, info.physicalAddress?.country] };
}

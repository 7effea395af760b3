import type { EntityInfo } from '../types.js';

const SECTIONS = ['activityInfo', 'financialInfo', 'highRiskInfo'] as const;

/**
 * "Only provided fields change": top-level fields and the fields inside activityInfo, financialInfo and
 * highRiskInfo are merged one by one. An address is replaced as a whole: keeping the old `state` or
 * `streetLine2` under a new street in another country would produce an address nobody wrote.
 */
export function mergeEntityInfo(current: EntityInfo, patch: EntityInfo): EntityInfo {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if ((SECTIONS as readonly string[]).includes(key)) {
      merged[key] = { ...((current as Record<string, unknown>)[key] as object | undefined), ...(value as object) };
    } else {
      merged[key] = value;
    }
  }
  return merged as EntityInfo;
}

/** JSON with object keys sorted: jsonb hands objects back with its own key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Fields of entityInfo whose values differ, with their old values (for previousAttributes). */
export function changedFields(before: EntityInfo, after: EntityInfo): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = (before as Record<string, unknown>)[key];
    const b = (after as Record<string, unknown>)[key];
    if (canonical(a) !== canonical(b)) changes[key] = a ?? null;
  }
  return changes;
}

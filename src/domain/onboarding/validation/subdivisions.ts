import { iso31662 } from 'iso-3166';

/**
 * ISO 3166-2 subdivision codes grouped by the alpha-2 country they ultimately belong to. iso-3166 gives
 * nested subdivisions (e.g. the districts of Nakhchivan, AZ-NX) a subdivision as `parent`, so the
 * parent chain is followed up to the two-letter country code.
 */
const parentOf = new Map(iso31662.map((entry) => [entry.code, entry.parent]));

function rootCountry(code: string): string {
  let current = code;
  // The chain is at most a few links deep; the bound only guards against a cycle in the data.
  for (let hops = 0; hops < 8; hops += 1) {
    const parent = parentOf.get(current);
    if (parent === undefined) return current;
    current = parent;
  }
  return current;
}

const byCountry = new Map<string, Set<string>>();
for (const entry of iso31662) {
  const country = rootCountry(entry.code);
  let codes = byCountry.get(country);
  if (codes === undefined) byCountry.set(country, (codes = new Set()));
  codes.add(entry.code);
}

/** True when `code` (exact, upper-case as ISO writes it, e.g. "US-CA") is a subdivision of the alpha-2 country. */
export function isSubdivisionOf(code: string, alpha2: string): boolean {
  return byCountry.get(alpha2)?.has(code) ?? false;
}

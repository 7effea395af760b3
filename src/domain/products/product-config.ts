import { isCountryCode } from '../onboarding/reference/country-codes.js';
import { PRODUCT_IDS, type CountryRule, type ProductConfig, type ProductId } from './catalogue.js';

const isProduct = (id: string): id is ProductId => (PRODUCT_IDS as readonly string[]).includes(id);

/** PRODUCTS: the offered products, comma-separated (default: every product). */
export function parseOfferedProducts(raw: string | undefined): ProductId[] {
  if (raw === undefined || raw.trim() === '') return [...PRODUCT_IDS];
  const ids = raw.split(',').map((p) => p.trim()).filter(Boolean);
  const unknown = ids.filter((id) => !isProduct(id));
  if (unknown.length > 0) throw new Error(`unknown product(s) ${unknown.join(', ')} (products: ${PRODUCT_IDS.join(', ')})`);
  return [...new Set(ids)] as ProductId[];
}

/**
 * PRODUCT_COUNTRIES: `<productId>=<codes>` entries separated by `;`, codes comma-separated ISO 3166-1 alpha-3: the
 * only countries allowed, or, after a leading `!`, the countries excluded. Example: `yield_vaults=!USA,CAN`.
 */
export function parseCountryRules(raw: string | undefined): ProductConfig['countries'] {
  const rules: ProductConfig['countries'] = {};
  if (raw === undefined || raw.trim() === '') return rules;
  for (const entry of raw.split(';').map((e) => e.trim()).filter(Boolean)) {
    const m = /^([a-z_]+)=(!?)([A-Z,\s]+)$/.exec(entry);
    if (!m || !isProduct(m[1]!)) throw new Error(`"${entry}" is not <productId>=<codes> or <productId>=!<codes> (products: ${PRODUCT_IDS.join(', ')})`);
    const codes = m[3]!.split(',').map((c) => c.trim()).filter(Boolean);
    const bad = codes.filter((c) => !isCountryCode(c));
    if (bad.length > 0 || codes.length === 0) throw new Error(`"${entry}" names no country or unknown codes ${bad.join(', ')}`);
    if (rules[m[1] as ProductId]) throw new Error(`${m[1]} has two rules`);
    const rule: CountryRule = m[2] === '!' ? { excluded: codes } : { allowed: codes };
    rules[m[1] as ProductId] = rule;
  }
  return rules;
}

import type { VerificationStatus } from '../../db/schema/index.js';
import type { CountryRule, ProductDefinition } from './catalogue.js';

/** Why an account cannot have a product (docs/products.md#statuses). */
export type IneligibilityReason =
  | 'account_type_not_supported'
  | 'verification_not_active'
  | 'country_not_supported'
  | 'country_unknown'
  | 'wallet_missing'
  | 'self_custodial_account';

/** What eligibility depends on, read from the account, its user or entity. */
export interface AccountFacts {
  type: 'individual' | 'entity';
  verificationStatus: VerificationStatus | null;
  /** Residence of the user, registered address of the entity; null when not given. */
  country: string | null;
  custody: 'custodial' | 'self_custodial' | null;
  hasWallet: boolean;
}

/** Every reason the account cannot have the product (empty: eligible), in a fixed order. */
export function ineligibility(product: ProductDefinition, rule: CountryRule | undefined, facts: AccountFacts): IneligibilityReason[] {
  const reasons: IneligibilityReason[] = [];
  if (!product.accountTypes.includes(facts.type)) reasons.push('account_type_not_supported');
  if (facts.verificationStatus !== 'active') reasons.push('verification_not_active');
  if (rule) {
    if (facts.country === null) reasons.push('country_unknown');
    else if ('allowed' in rule ? !rule.allowed.includes(facts.country) : rule.excluded.includes(facts.country)) reasons.push('country_not_supported');
  }
  if (product.custodialWalletRequired) {
    if (facts.custody === 'self_custodial') reasons.push('self_custodial_account');
    else if (!facts.hasWallet) reasons.push('wallet_missing');
  }
  return reasons;
}

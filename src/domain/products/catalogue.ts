/**
 * The products this service has (docs/products.md): what each is, whom it is for, and whether an account has it
 * without asking. Which of them a deployment offers, and the country rules, come from the configuration
 * (PRODUCTS, PRODUCT_COUNTRIES).
 */
export const PRODUCT_IDS = ['custodial_wallet', 'fiat_deposits', 'fiat_withdrawals', 'yield_vaults'] as const;
export type ProductId = (typeof PRODUCT_IDS)[number];

export type ProductKind = 'wallet' | 'onramp' | 'offramp' | 'yield';

export interface ProductDefinition {
  productId: ProductId;
  name: string;
  description: string;
  kind: ProductKind;
  accountTypes: readonly ('individual' | 'entity')[];
  /** Needs a wallet this service holds the key of (custodial). */
  custodialWalletRequired: boolean;
  /**
   * Enabled for every eligible account unless the integrator disables it: the products accounts had before there was
   * a catalogue. The others are enabled one account at a time, with the terms accepted (enable-product).
   */
  enabledByDefault: boolean;
  /** Terms the end user accepts to enable it (termsAcceptedAt), or none. */
  termsRequired: boolean;
}

export const PRODUCTS: Record<ProductId, ProductDefinition> = {
  custodial_wallet: {
    productId: 'custodial_wallet',
    name: 'Custodial wallet',
    description: 'A wallet whose key this service holds; transfers approved by the end user’s passkey or one-time code (or an entity’s members)',
    kind: 'wallet',
    accountTypes: ['individual', 'entity'],
    custodialWalletRequired: true,
    enabledByDefault: true,
    termsRequired: false,
  },
  fiat_deposits: {
    productId: 'fiat_deposits',
    name: 'Fiat deposits',
    description: 'Bank transfers in USD or EUR paid out as crypto to the account’s wallet',
    kind: 'onramp',
    accountTypes: ['individual', 'entity'],
    custodialWalletRequired: false,
    enabledByDefault: true,
    termsRequired: false,
  },
  fiat_withdrawals: {
    productId: 'fiat_withdrawals',
    name: 'Fiat withdrawals',
    description: 'Crypto from the custodial wallet paid out in USD (ACH) or EUR (SEPA) to a verified bank account',
    kind: 'offramp',
    accountTypes: ['individual', 'entity'],
    custodialWalletRequired: true,
    enabledByDefault: true,
    termsRequired: false,
  },
  yield_vaults: {
    productId: 'yield_vaults',
    name: 'Yield vaults',
    description: 'Deposits of the wallet’s assets into ERC-4626 vaults that earn a variable yield; the value can go down',
    kind: 'yield',
    accountTypes: ['individual', 'entity'],
    custodialWalletRequired: true,
    enabledByDefault: false,
    termsRequired: true,
  },
};

/** A product's country rule: only these countries, or all but these (ISO 3166-1 alpha-3). */
export type CountryRule = { allowed: string[] } | { excluded: string[] };

/** What a deployment offers (config.products). */
export interface ProductConfig {
  offered: ProductId[];
  countries: Partial<Record<ProductId, CountryRule>>;
}

/** A product as list-products shows it, with what an account needs to have it. */
export interface ProductView {
  productId: ProductId;
  name: string;
  description: string;
  kind: ProductKind;
  enabledByDefault: boolean;
  requirements: {
    accountTypes: ('individual' | 'entity')[];
    verificationStatus: 'active';
    custodialWallet: boolean;
    countries: { allowed: string[] | null; excluded: string[] };
    termsRequired: boolean;
  };
}

/** list-products: the products this deployment offers. */
export function listProducts(config: ProductConfig): { data: ProductView[] } {
  return {
    data: config.offered.map((id) => {
      const p = PRODUCTS[id];
      const rule = config.countries[id];
      return {
        productId: p.productId,
        name: p.name,
        description: p.description,
        kind: p.kind,
        enabledByDefault: p.enabledByDefault,
        requirements: {
          accountTypes: [...p.accountTypes],
          verificationStatus: 'active',
          custodialWallet: p.custodialWalletRequired,
          countries: rule && 'allowed' in rule ? { allowed: rule.allowed, excluded: [] } : { allowed: null, excluded: rule?.excluded ?? [] },
          termsRequired: p.termsRequired,
        },
      };
    }),
  };
}

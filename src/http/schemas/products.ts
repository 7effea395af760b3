import { Type } from 'typebox';
import { PRODUCT_IDS } from '../../domain/products/catalogue.js';
import { Nullable, Uuid } from './onboarding/common.js';

// The product catalogue and each account's products (docs/products.md): the routes' and the events' shapes.

export const ProductIdSchema = Type.Enum([...PRODUCT_IDS], { type: 'string', description: 'docs/products.md' });
const REASONS = ['account_type_not_supported', 'verification_not_active', 'country_not_supported', 'country_unknown', 'wallet_missing', 'self_custodial_account'] as const;

export const ProductSchema = Type.Object(
  {
    productId: ProductIdSchema,
    name: Type.String(),
    description: Type.String(),
    kind: Type.Enum(['wallet', 'onramp', 'offramp', 'yield'], { type: 'string' }),
    enabledByDefault: Type.Boolean({ description: 'Eligible accounts have it until the integrator disables it; else enable-product' }),
    requirements: Type.Object(
      {
        accountTypes: Type.Array(Type.Enum(['individual', 'entity'], { type: 'string' })),
        verificationStatus: Type.Literal('active'),
        custodialWallet: Type.Boolean({ description: 'Needs a wallet whose key this service holds' }),
        countries: Type.Object(
          { allowed: Nullable(Type.Array(Type.String(), { description: 'Only these (ISO 3166-1 alpha-3); null: any' })), excluded: Type.Array(Type.String()) },
          { additionalProperties: false, description: 'Of the user’s residence, or the entity’s registered address' },
        ),
        termsRequired: Type.Boolean({ description: 'enable-product needs termsAcceptedAt' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, description: 'A product of this deployment' },
);

export const AccountProductSchema = Type.Object(
  {
    accountId: Uuid(),
    productId: ProductIdSchema,
    status: Type.Enum(['available', 'enabled', 'unavailable'], { type: 'string', description: 'unavailable: see reasons; available: enable-product' }),
    reasons: Type.Array(Type.Enum([...REASONS], { type: 'string' })),
    termsAcceptedAt: Nullable(Type.String({ format: 'date-time' })),
    updatedAt: Nullable(Type.String({ format: 'date-time', description: 'When the account’s choice last changed; null while the default applies' })),
  },
  { additionalProperties: false, title: 'AccountProduct', description: 'One product for one account' },
);


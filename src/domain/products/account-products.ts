import type { Executor } from '../../db/database.js';
import { findAccountFacts, findAccountProduct, listAccountProductRows, saveAccountProduct, type AccountFactsRow, type AccountProductRow } from '../../db/repositories/account-products.js';
import { findAccount } from '../../db/repositories/accounts.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, invalidFields, notFound } from '../errors.js';
import { recordEvent } from '../events/record-event.js';
import { PRODUCTS, type ProductConfig, type ProductDefinition, type ProductId } from './catalogue.js';
import { ineligibility, type IneligibilityReason } from './eligibility.js';

/** One product for one account (list-account-products, and the product events' object). */
export interface AccountProductView {
  accountId: string;
  productId: ProductId;
  status: 'available' | 'enabled' | 'unavailable';
  /** Why it is unavailable; empty otherwise. */
  reasons: IneligibilityReason[];
  termsAcceptedAt: string | null;
  /** When the account's choice last changed; null while the product's default applies. */
  updatedAt: string | null;
}

/** Whether the account chose the product (or has it by default). */
const chosen = (product: ProductDefinition, status: AccountProductRow['status'] | null | undefined): boolean => (status ? status === 'enabled' : product.enabledByDefault);

function toAccountProductView(config: ProductConfig, facts: AccountFactsRow, product: ProductDefinition, row: AccountProductRow | undefined): AccountProductView {
  const reasons = ineligibility(product, config.countries[product.productId], facts);
  return {
    accountId: facts.id,
    productId: product.productId,
    status: reasons.length > 0 ? 'unavailable' : chosen(product, row?.status) ? 'enabled' : 'available',
    reasons,
    termsAcceptedAt: row?.termsAcceptedAt?.toISOString() ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

async function factsOf(db: Executor, integratorId: string, accountId: string): Promise<AccountFactsRow> {
  const facts = await findAccountFacts(db, integratorId, accountId);
  if (!facts) throw notFound('Account');
  return facts;
}

function offered(config: ProductConfig, productId: string): ProductDefinition {
  const product = (config.offered as string[]).includes(productId) ? PRODUCTS[productId as ProductId] : undefined;
  if (!product) throw notFound('Product');
  return product;
}

/** list-account-products: every offered product's status for the account. */
export async function listAccountProducts(db: Executor, config: ProductConfig, integratorId: string, accountId: string): Promise<{ data: AccountProductView[] }> {
  const facts = await factsOf(db, integratorId, accountId);
  const rows = new Map((await listAccountProductRows(db, accountId)).map((r) => [r.productId, r]));
  return { data: config.offered.map((id) => toAccountProductView(config, facts, PRODUCTS[id], rows.get(id))) };
}

export interface EnableProductInput {
  accountId: string;
  productId: string;
  termsAcceptedAt?: string;
}

/**
 * enable-product (docs/products.md): an eligible account enables an offered product, with the moment its end user
 * accepted the product's terms when it has some. Enabling what is enabled answers it as it is and writes nothing.
 */
export async function enableProduct(ctx: MutationContext, config: ProductConfig, input: EnableProductInput): Promise<AccountProductView> {
  const product = offered(config, input.productId);
  const accepted = input.termsAcceptedAt === undefined ? undefined : new Date(input.termsAcceptedAt);
  if (product.termsRequired && !accepted) throw invalidFields([{ pointer: '/termsAcceptedAt', code: 'required', detail: `${product.name} has terms: termsAcceptedAt is when the end user accepted them`, in: 'body' }]);
  if (accepted && accepted.getTime() > ctx.now.getTime() + 5 * 60_000) throw invalidFields([{ pointer: '/termsAcceptedAt', code: 'in_future', detail: 'termsAcceptedAt is in the future', in: 'body' }]);
  return runMutation(ctx, async (tx) => {
    // The account's lock: the choice, its check and its event happen one request at a time per account.
    if (!(await findAccount(tx, ctx.actor.integratorId, input.accountId, { lock: true }))) throw notFound('Account');
    const facts = await factsOf(tx, ctx.actor.integratorId, input.accountId);
    const row = await findAccountProduct(tx, facts.id, product.productId);
    const before = toAccountProductView(config, facts, product, row);
    if (before.status === 'unavailable') {
      throw new ApiError('product_unavailable', `The account cannot have ${product.name}: ${before.reasons.join(', ')}`, { extensions: { reasons: before.reasons } });
    }
    if (before.status === 'enabled' && (row || !product.termsRequired)) return before;
    const saved = await saveAccountProduct(tx, { integratorId: facts.integratorId, accountId: facts.id, productId: product.productId, status: 'enabled', termsAcceptedAt: accepted ?? null, createdAt: ctx.now, updatedAt: ctx.now });
    const view = toAccountProductView(config, facts, product, saved);
    await recordEvent(tx, { integratorId: facts.integratorId, type: 'account.product_enabled', objectType: 'account_product', objectId: facts.id, object: view, at: ctx.now });
    return view;
  });
}

/** disable-product: the product's operations refuse the account (409 product_not_enabled) until it is enabled again. */
export async function disableProduct(ctx: MutationContext, config: ProductConfig, input: { accountId: string; productId: string }): Promise<AccountProductView> {
  const product = offered(config, input.productId);
  return runMutation(ctx, async (tx) => {
    if (!(await findAccount(tx, ctx.actor.integratorId, input.accountId, { lock: true }))) throw notFound('Account');
    const facts = await factsOf(tx, ctx.actor.integratorId, input.accountId);
    const row = await findAccountProduct(tx, facts.id, product.productId);
    if (!chosen(product, row?.status)) return toAccountProductView(config, facts, product, row);
    const saved = await saveAccountProduct(tx, { integratorId: facts.integratorId, accountId: facts.id, productId: product.productId, status: 'disabled', termsAcceptedAt: row?.termsAcceptedAt ?? null, createdAt: ctx.now, updatedAt: ctx.now });
    const view = toAccountProductView(config, facts, product, saved);
    await recordEvent(tx, { integratorId: facts.integratorId, type: 'account.product_disabled', objectType: 'account_product', objectId: facts.id, object: view, at: ctx.now });
    return view;
  });
}

/**
 * The gate of a product's operations: 409 product_not_enabled when the deployment does not offer it or the account
 * has not enabled it (or disabled it). Eligibility (status, wallet) stays each operation's own check and code.
 */
export async function requireProductEnabled(db: Executor, config: ProductConfig, accountId: string, productId: ProductId): Promise<void> {
  requireProductChosen(config, productId, (await findAccountProduct(db, accountId, productId))?.status ?? null);
}

/** requireProductEnabled with the account's row for the product already read (its status; null when it has none). */
export function requireProductChosen(config: ProductConfig, productId: ProductId, status: AccountProductRow['status'] | null): void {
  const product = PRODUCTS[productId];
  if (!config.offered.includes(productId)) throw new ApiError('product_not_enabled', `${product.name} is not offered on this deployment (PRODUCTS)`);
  if (!chosen(product, status)) {
    throw new ApiError('product_not_enabled', `The account has not enabled ${product.name}: enable-product first`);
  }
}

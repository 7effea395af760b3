import { Type } from 'typebox';
import { VaultReadCache } from '../../../chain/erc4626.js';
import { getVaultPosition, listVaultPositions } from '../../../domain/vaults/positions.js';
import { prepareVaultDeposit, prepareVaultWithdrawal } from '../../../domain/vaults/prepare.js';
import { getVault, listVaults } from '../../../domain/vaults/vault-reads.js';
import { actorFrom, integratorOf } from '../../context.js';
import { exactlyOneOf } from '../../schemas/combinators.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import { SIGNED_READ_ERRORS, SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import { Amount, PositionRef, PreparedRef, VaultRef } from '../../schemas/vaults.js';
import type { Api, Deps } from '../../types.js';

const TAGS = ['Products'];

/** Yield vaults: the catalogue read from the chain, preparing deposits and withdrawals, positions (docs/products.md#vaults). */
export function vaultRoutes(api: Api, deps: Deps): void {
  const vaultDeps = { chains: deps.chains, config: deps.config.vaults, reads: new VaultReadCache(deps.config.vaults.cacheMs, () => deps.clock().getTime()), products: deps.config.products };

  api.get(
    '/v1/query/list-vaults',
    {
      schema: {
        operationId: 'listVaults',
        tags: TAGS,
        summary: 'The yield vaults this deployment offers, with their assets, share price and APYs',
        response: { 200: Type.Object({ data: Type.Array(VaultRef) }, { additionalProperties: false }), ...problemResponses(...SIGNED_READ_ERRORS, 502) },
      },
    },
    async () => listVaults(deps.database.db, vaultDeps, deps.clock()),
  );

  api.get(
    '/v1/query/get-vault',
    {
      schema: {
        operationId: 'getVault',
        tags: TAGS,
        summary: 'One yield vault',
        querystring: Type.Object({ vaultId: Uuid() }, { additionalProperties: false }),
        response: { 200: VaultRef, ...problemResponses(...SIGNED_READ_ERRORS, 404, 502) },
      },
    },
    async (request) => getVault(deps.database.db, vaultDeps, request.query.vaultId, deps.clock()),
  );

  api.post(
    '/v1/submit/prepare-vault-deposit',
    {
      schema: {
        operationId: 'prepareVaultDeposit',
        tags: TAGS,
        summary: 'Prepares a deposit into a vault: the asset’s approve (when the allowance is short) and the vault’s deposit, for the end user to approve',
        headers: IdempotencyHeaders,
        body: Type.Object({ accountId: Uuid(), vaultId: Uuid(), amount: Amount('Assets to deposit, in the asset’s units, greater than 0') }, { additionalProperties: false }),
        response: { 200: PreparedRef, ...problemResponses(...SIGNED_WRITE_ERRORS, 404, 422, 502) },
      },
    },
    async (request) => prepareVaultDeposit(actorFrom(request, deps), vaultDeps, request.body),
  );

  api.post(
    '/v1/submit/prepare-vault-withdrawal',
    {
      schema: {
        operationId: 'prepareVaultWithdrawal',
        tags: TAGS,
        summary: 'Prepares a withdrawal from a vault: withdraw (an amount of the asset) or redeem (a number of shares), for the end user to approve',
        headers: IdempotencyHeaders,
        body: Type.Object(
          {
            accountId: Uuid(),
            vaultId: Uuid(),
            amount: Type.Optional(Amount('Assets to withdraw (withdraw), in the asset’s units, greater than 0')),
            shares: Type.Optional(Amount('Shares to redeem (redeem), in the vault’s units, greater than 0')),
          },
          { additionalProperties: false, ...exactlyOneOf('amount', 'shares'), description: 'Exactly one of amount and shares' },
        ),
        response: { 200: PreparedRef, ...problemResponses(...SIGNED_WRITE_ERRORS, 404, 422, 502) },
      },
    },
    async (request) => prepareVaultWithdrawal(actorFrom(request, deps), vaultDeps, request.body),
  );

  api.get(
    '/v1/query/get-vault-position',
    {
      schema: {
        operationId: 'getVaultPosition',
        tags: TAGS,
        summary: 'An account’s position in one vault: shares, their value now, net deposited, earnings',
        querystring: Type.Object({ accountId: Uuid(), vaultId: Uuid() }, { additionalProperties: false }),
        response: { 200: PositionRef, ...problemResponses(...SIGNED_READ_ERRORS, 404, 502) },
      },
    },
    async (request) => getVaultPosition(deps.database.db, vaultDeps, integratorOf(request), request.query.accountId, request.query.vaultId),
  );

  api.get(
    '/v1/query/list-vault-positions',
    {
      schema: {
        operationId: 'listVaultPositions',
        tags: TAGS,
        summary: 'An account’s positions: every vault where it holds shares or has deposited through this service',
        querystring: Type.Object({ accountId: Uuid() }, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(PositionRef) }, { additionalProperties: false }), ...problemResponses(...SIGNED_READ_ERRORS, 404, 502) },
      },
    },
    async (request) => listVaultPositions(deps.database.db, vaultDeps, integratorOf(request), request.query.accountId),
  );
}

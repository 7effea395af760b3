import { Type } from 'typebox';
import { treasuryFor } from '../../chain/treasury.js';
import { AMOUNT_PATTERN, cancelDeposit, depositByReference, receiveDepositFunds } from '../../domain/deposits/deposits.js';
import type { Api, Deps } from '../types.js';

// Internal operator surface, like the rest of /admin/api: not in the integrators' OpenAPI document.
const HIDDEN = { hide: true } as const;
const ReferenceParams = Type.Object({ reference: Type.String({ pattern: '^DEP-[0-9A-Z]{12}$' }) }, { additionalProperties: false });

/**
 * Deposits as operators (or a bank-feed integration holding an operator token) move them in production:
 * funds received for a reference, or cancelled (docs/deposits.md). Registered inside the admin API's scope.
 */
export function adminDepositRoutes(api: Api, deps: Deps): void {
  const treasury = treasuryFor({ key: deps.config.deposits.treasuryKey, sandbox: deps.config.appEnv === 'sandbox', secrets: deps.secrets });

  api.get('/treasury', { schema: HIDDEN }, async () => ({ address: treasury?.address ?? null, chainIds: deps.chains.chainIds() }));

  api.get('/deposits/:reference', { schema: { ...HIDDEN, params: ReferenceParams } }, async (request) => depositByReference(deps.database, request.params.reference));

  api.post(
    '/deposits/:reference/funds-received',
    {
      schema: {
        ...HIDDEN,
        params: ReferenceParams,
        body: Type.Object({ amount: Type.String({ pattern: AMOUNT_PATTERN, description: 'The amount that arrived, decimal, in the deposit’s currency' }) }, { additionalProperties: false }),
      },
    },
    async (request) => {
      const result = await receiveDepositFunds(deps.database, { config: deps.config.deposits }, { reference: request.params.reference, amount: request.body.amount }, request.operator!.operatorId, deps.clock());
      request.log.info({ operator: request.operator!.name, reference: request.params.reference, amount: request.body.amount }, 'deposit funds received');
      deps.transactionBroadcast?.fire();
      return result;
    },
  );

  api.post(
    '/deposits/:reference/cancel',
    {
      schema: {
        ...HIDDEN,
        params: ReferenceParams,
        body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false }),
      },
    },
    async (request) => {
      const result = await cancelDeposit(deps.database, { reference: request.params.reference, reason: request.body.reason }, request.operator!.operatorId, deps.clock());
      request.log.info({ operator: request.operator!.name, reference: request.params.reference, reason: request.body.reason }, 'deposit cancelled');
      return result;
    },
  );
}

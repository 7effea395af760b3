import { Type } from 'typebox';
import { treasuryFor } from '../../../chain/treasury.js';
import { DEPOSIT_CURRENCIES } from '../../../domain/deposits/deposit-config.js';
import { createWithdrawal, type WithdrawalDeps } from '../../../domain/withdrawals/create-withdrawal.js';
import { simulateWithdrawal } from '../../../domain/withdrawals/withdrawal-payouts.js';
import { actorFrom } from '../../context.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import { SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';
import { TransactionRef } from '../../schemas/transactions.js';
import { AssetField } from '../../schemas/assets.js';
import { FORMATS, patterned } from '../../schemas/patterns.js';

/** Fiat withdrawals (docs/withdrawals.md): create-withdrawal and the sandbox simulate-withdrawal. */
export function withdrawalRoutes(api: Api, deps: Deps): void {
  const withdrawalDeps: WithdrawalDeps = {
    chains: deps.chains,
    config: deps.config.withdrawals,
    treasury: treasuryFor({ key: deps.config.deposits.treasuryKey, sandbox: deps.config.appEnv === 'sandbox', secrets: deps.secrets, custody: deps.custody }),
    products: deps.config.products,
    tokens: deps.tokens,
  };

  api.post(
    '/v1/submit/create-withdrawal',
    {
      schema: {
        operationId: 'createWithdrawal',
        tags: ['Transactions'],
        summary: 'A fiat withdrawal (offramp): a 60 s quote and the unsigned transfer to the treasury for the end user to approve; fiat is paid to the bank account once the crypto arrived',
        headers: IdempotencyHeaders,
        body: Type.Object(
          {
            accountId: Uuid('An active account with a custodial wallet'),
            bankAccountId: Uuid('A verified bank account of that account, in the same currency'),
            chainId: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'The chain the crypto is sent on (CHAIN_RPC_URLS)' }),
            amount: patterned(FORMATS.fiatAmount, { description: 'The fiat amount paid to the bank account: a decimal string greater than 0 with at most 2 decimals' }),
            currency: Type.Enum([...DEPOSIT_CURRENCIES], { type: 'string', description: 'The bank account’s currency' }),
            asset: AssetField('taken'),
          },
          { additionalProperties: false },
        ),
        response: { 201: TransactionRef, ...problemResponses(...SIGNED_WRITE_ERRORS, 404, 502, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await createWithdrawal(actorFrom(request, deps), withdrawalDeps, request.body)),
  );

  // Sandbox only; production moves payouts through the operator API (a plain 404 here).
  if (deps.config.appEnv !== 'sandbox') return;
  api.post(
    '/v1/sandbox/simulate-withdrawal',
    {
      schema: {
        operationId: 'simulateWithdrawal',
        tags: ['Sandbox'],
        summary: 'Sandbox only: the fiat payout of a withdrawal in funds_in_transfer settles (completed) or is returned (failed, payout_returned, crypto refunded)',
        headers: IdempotencyHeaders,
        body: Type.Object({ transactionId: Uuid('The withdrawal'), outcome: Type.Enum(['completed', 'returned'], { type: 'string' }) }, { additionalProperties: false }),
        response: { 200: TransactionRef, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => {
      const result = await simulateWithdrawal(actorFrom(request, deps), request.body);
      deps.transactionBroadcast?.fire();
      return result;
    },
  );
}

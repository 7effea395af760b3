import { Type } from 'typebox';
import { treasuryFor } from '../../../chain/treasury.js';
import { DEPOSIT_CURRENCIES } from '../../../domain/deposits/deposit-config.js';
import { createDeposit, simulateDeposit, type DepositDeps } from '../../../domain/deposits/deposits.js';
import { actorFrom } from '../../context.js';
import { IdempotencyHeaders } from '../../schemas/headers.js';
import { Uuid } from '../../schemas/onboarding/common.js';
import { SIGNED_WRITE_ERRORS, problemResponses } from '../../schemas/problem.js';
import type { Api, Deps } from '../../types.js';
import { TransactionRef } from '../../schemas/transactions.js';
import { AssetField } from '../../schemas/assets.js';
import { FORMATS, patterned } from '../../schemas/patterns.js';

const Amount = (description: string) => patterned(FORMATS.fiatAmount, { description: `${description}: a decimal string greater than 0 with at most 2 decimals, e.g. "250.00"` });

/** Fiat deposits (docs/deposits.md): create-deposit and the sandbox simulate-deposit. */
export function depositRoutes(api: Api, deps: Deps): void {
  const depositDeps: DepositDeps = {
    chains: deps.chains,
    config: deps.config.deposits,
    treasury: treasuryFor({ key: deps.config.deposits.treasuryKey, sandbox: deps.config.appEnv === 'sandbox', secrets: deps.secrets, custody: deps.custody }),
    products: deps.config.products,
    tokens: deps.tokens,
  };

  api.post(
    '/v1/submit/create-deposit',
    {
      schema: {
        operationId: 'createDeposit',
        tags: ['Transactions'],
        summary: 'A fiat deposit (onramp): bank instructions with a unique reference; once the funds arrive, crypto is paid to the account’s wallet',
        headers: IdempotencyHeaders,
        body: Type.Object(
          {
            accountId: Uuid('An active account with a wallet (individual accounts)'),
            amount: Amount('The fiat amount to be paid in'),
            currency: Type.Enum([...DEPOSIT_CURRENCIES], { type: 'string', description: 'USD (ACH, wire) or EUR (SEPA)' }),
            chainId: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'The chain the crypto is paid out on (CHAIN_RPC_URLS)' }),
            asset: AssetField('paid out'),
          },
          { additionalProperties: false },
        ),
        response: { 201: TransactionRef, ...problemResponses(...SIGNED_WRITE_ERRORS, 404, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await createDeposit(actorFrom(request, deps), depositDeps, request.body)),
  );

  // Sandbox only; production advances deposits through the operator API (a plain 404 here).
  if (deps.config.appEnv !== 'sandbox') return;
  api.post(
    '/v1/sandbox/simulate-deposit',
    {
      schema: {
        operationId: 'simulateDeposit',
        tags: ['Sandbox'],
        summary: 'Sandbox only: the bank transfer of a deposit arrives (waiting_for_funds -> funds_in_transfer); the payout on chain follows',
        headers: IdempotencyHeaders,
        body: Type.Object({ transactionId: Uuid('The deposit'), amount: Amount('The amount that arrives (may differ from the one asked)') }, { additionalProperties: false }),
        response: { 200: TransactionRef, ...problemResponses(...SIGNED_WRITE_ERRORS, 404) },
      },
    },
    async (request) => {
      const result = await simulateDeposit(actorFrom(request, deps), depositDeps, request.body);
      deps.transactionBroadcast?.fire();
      return result;
    },
  );
}

// The Integrator API SDK: a typed client (one method per operation, signing, idempotency keys, retries, typed
// errors, pagination) and webhook verification that also works on its own.
export { createIntegratorClient, type CallOptions, type ClientOptions, type InputOf, type IntegratorClient, type Methods, type RawResponse, type ResultOf } from './client.js';
export { IntegratorApiError, IntegratorConnectionError, type FieldError } from './errors.js';
export type { components, operations, paths } from './generated/openapi.js';
export { OPERATIONS, type OperationId } from './generated/operations.js';
export { generateSigningKey, signingKey, signRequest, type SignatureHeaders, type SigningKey } from './signing.js';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions } from './webhooks.js';
export { buildUnsignedTransaction, rlp, serializeEip1559, signedBodyFor, type BuildTransferInput, type Eip1559Fields } from './transactions.js';
export { stampChallenge, stampFromAssertion, stampWithPasskey, type CredentialsGetter, type PasskeyRequest, type StampOptions } from './stamps.js';

import type { TokenRegistry } from '../domain/tokens/token-registry.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ChainRegistry } from '../chain/chain-client.js';
import type { CustodyKeys } from '../chain/custody-keys.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/database.js';
import type { Policy } from '../domain/context.js';
import type { Access } from '../domain/credentials/scopes.js';
import type { FieldError } from '../domain/errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Signal } from '../workers/signal.js';

/** A Fastify instance whose route schemas are TypeBox: one schema gives validation, types and OpenAPI. */
export type Api = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** What route handlers may use. Handlers stay thin: validated input in, one domain call, result out. */
export interface Deps {
  config: Config;
  database: Database;
  clock: Clock;
  secrets: SecretBox;
  /** Custody and treasury keys (CUSTODY_KEYS); absent (an app built by hand), wallets' keys are sealed under `secrets`. */
  custody?: CustodyKeys;
  policy: Policy;
  /** The configured chains (CHAIN_RPC_URLS). */
  chains: ChainRegistry;
  /** The listed ERC-20s (TOKENS), confirmed on their chains at start-up. */
  tokens: TokenRegistry;
  /** Fired after a transaction was broadcast, to wake the transaction watcher. */
  transactionBroadcast?: Signal;
  /** Fired after mail was queued (invitations), to wake the mail sender. */
  mailQueued?: Signal;
  /** Sends one-time codes (SMTP_URL, built by the composition root); none: sandbox outbox, or 503 in production. */
  mailer?: Mailer;
  /** Counts every answer, served at GET /metrics (none: neither, as when only the OpenAPI document is wanted). */
  metrics?: Metrics;
}

/** A signed operation as listed in whoami's capabilities. */
export interface Operation {
  operationId: string;
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Overrides the access derived from the method (GET = read, else write). */
    access?: Access;
    /**
     * The domain's own checks of a body. When the schema already refused the body, the error handler runs
     * these too, so every bad field is reported in one response rather than over two round trips.
     */
    bodyChecks?: (body: unknown) => FieldError[];
    /** The success answer carries a secret: an Idempotency-Key replays it only to the credential that made the request. */
    secretResponse?: boolean;
  }
}

import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { newId } from '../domain/ids.js';
import { registerAdminApi } from './admin/admin-api.js';
import { eventRoutes } from './routes/events/events.js';
import { webhookRoutes } from './routes/webhooks/subscriptions.js';
import { registerAdminConsole } from './admin/console.js';
import { registerSignedScope } from './auth/signed-scope.js';
import { registerJsonBody } from './json-body.js';
import { registerBodyLimits } from './body-limits.js';
import { registerCompression } from './compression.js';
import { SecretUrls } from './secret-urls.js';
import { FailureLimiter } from './auth/failure-limiter.js';
import { registerOpenApi } from './openapi.js';
import { frameworkErrorHandler, registerProblemHandling } from './problem.js';
import { healthRoute } from './routes/health/health.js';
import { Drain } from './drain.js';
import { credentialRoutes } from './routes/integrator/credentials.js';
import { whoamiRoute } from './routes/integrator/whoami.js';
import { opsRoutes } from './routes/ops/probes.js';
import { accountRoutes } from './routes/onboarding/accounts.js';
import { entityRoutes } from './routes/onboarding/entities.js';
import { personRoutes } from './routes/onboarding/persons.js';
import { userRoutes } from './routes/onboarding/users.js';
import { depositRoutes } from './routes/transactions/deposits.js';
import { otpRoutes } from './routes/otp/otp.js';
import { transactionRoutes } from './routes/transactions/transactions.js';
import { verificationRoutes } from './routes/verification/verification.js';
import { bankAccountRoutes } from './routes/bank-accounts/bank-accounts.js';
import { memberRoutes } from './routes/members/members.js';
import { productRoutes } from './routes/products/products.js';
import { vaultRoutes } from './routes/products/vaults.js';
import { tokenRoutes } from './routes/tokens/tokens.js';
import { ledgerEntryRoutes } from './routes/ledger/ledger-entries.js';
import { policyRoutes } from './routes/policies/policies.js';
import { invitationRoutes } from './routes/members/invitations.js';
import { onboardingLinkRoutes } from './routes/onboarding-links/onboarding-links.js';
import { registerInvitationPages } from './pages/invitation-routes.js';
import { registerOnboardingPages } from './pages/onboarding/routes.js';
import { registerGuides } from './pages/guides.js';
import { registerFrontPage } from './pages/front-page.js';
import { transactionApprovalRoutes } from './routes/members/transaction-approvals.js';
import { withdrawalRoutes } from './routes/transactions/withdrawals.js';
import { TransactionSchema } from './schemas/transactions.js';
import { PositionSchema, PreparedSchema, VaultSchema } from './schemas/vaults.js';
import { SubscriptionListingSchema, SubscriptionSchema } from './schemas/webhooks.js';
import { CredentialSchema } from './schemas/credentials.js';
import { ProblemSchema } from './schemas/problem.js';
import type { Api, Deps, Operation } from './types.js';
import { buildSerializer } from './serializer-cache.js';
import { validatorCompiler } from './validation.js';
import { metricsRoute } from './routes/ops/metrics.js';
import type { BoundPort } from './bound-port.js';

/** Path parameters up to this long reach their schema (which names them); beyond it the router refuses them. */
const MAX_PATH_PARAM_LENGTH = 2048;

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /** The server process's port, bound before anything else (bound-port.ts); without it Fastify makes its own server. */
  port?: BoundPort;
}

/** The logger's options with the request serializer that keeps secrets in paths out of every line (secret-urls.ts). */
function withRequestSerializer(logger: AppOptions['logger'], req: SecretUrls['serializer']): AppOptions['logger'] {
  if (logger === false || logger === undefined) return false;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, req } };
}

/** Builds the HTTP application around already-opened dependencies; listening is the caller's business. */
export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<Api> {
  const secretUrls = new SecretUrls();
  const app = Fastify({
    logger: withRequestSerializer(options.logger ?? false, secretUrls.serializer),
    bodyLimit: deps.config.bodyLimitBytes,
    // Our own ids, never a client-supplied one: log lines and problem bodies must be trustworthy.
    genReqId: () => `req_${newId()}`,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    // No trailing-slash or case aliases: a path either is the spec's path or it is unknown.
    routerOptions: { ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: MAX_PATH_PARAM_LENGTH },
    // Bounded waits protect the server from slow clients (slowloris).
    requestTimeout: 30_000,
    frameworkErrors: frameworkErrorHandler,
    connectionTimeout: 60_000,
    // Registering the routes (hundreds, with their OpenAPI document) took seconds while it compiled every schema
    // (now compiled at first call, compile-on-first-call.ts); on a loaded host (or next to another app in one process)
    // that could pass avvio's 10 s default, and a slow start is better than a failed one (/readyz says when it is up).
    pluginTimeout: 120_000,
    // X-Forwarded-For only from the proxies TRUST_PROXY names (docs/deployment.md): anyone else's is ignored, so a
    // client cannot choose the address its failed authentications are counted against.
    trustProxy: deps.config.trustProxy.length > 0 ? deps.config.trustProxy : false,
    ...(options.port ? { serverFactory: options.port.serverFactory } : {}),
    schemaController: { compilersFactory: { buildSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // A graceful stop's first step (drain.ts), run by the server process on SIGTERM.
  app.decorate('drain', new Drain(app.server));

  // Before any route: each route's secretParams are checked as it registers (secret-urls.ts).
  app.addHook('onRoute', secretUrls.collect);
  app.setValidatorCompiler(validatorCompiler);
  app.addSchema(ProblemSchema);
  app.addSchema(CredentialSchema);
  // Named components: shapes several operations answer with, written once in the OpenAPI document.
  app.addSchema(TransactionSchema);
  app.addSchema(SubscriptionSchema);
  app.addSchema(SubscriptionListingSchema);
  app.addSchema(VaultSchema);
  app.addSchema(PositionSchema);
  app.addSchema(PreparedSchema);
  // Before any route: the plugin adds its hooks to each route as it registers.
  await registerCompression(app);
  // Callback hooks where nothing is awaited: an async one costs a promise per request on every route.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  const { metrics } = deps;
  if (metrics) {
    // The route's pattern, never the raw URL: ids in paths would make a series per record.
    app.addHook('onResponse', (request, reply, done) => {
      metrics.request(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
  const parseBody = registerJsonBody(app);
  registerBodyLimits(app, deps.config);
  registerProblemHandling(app);
  await registerOpenApi(app, deps.config.appEnv);
  const failures = new FailureLimiter(deps.config.authFailureLimit, deps.clock);

  opsRoutes(app, deps);
  metricsRoute(app, deps, failures);
  registerFrontPage(app, deps.config.appEnv);
  registerGuides(app);
  await registerInvitationPages(app, deps, failures);
  await registerOnboardingPages(app, deps, failures);
  const operations: Operation[] = [];
  await registerSignedScope(app, deps, operations, { parse: parseBody, failures }, (api) => {
    healthRoute(api, deps);
    whoamiRoute(api, operations);
    credentialRoutes(api, deps);
    userRoutes(api, deps);
    entityRoutes(api, deps);
    personRoutes(api, deps);
    accountRoutes(api, deps);
    bankAccountRoutes(api, deps);
    memberRoutes(api, deps);
    productRoutes(api, deps);
    vaultRoutes(api, deps);
    tokenRoutes(api, deps);
    ledgerEntryRoutes(api, deps);
    policyRoutes(api, deps);
    invitationRoutes(api, deps);
    onboardingLinkRoutes(api, deps);
    transactionApprovalRoutes(api, deps);
    verificationRoutes(api, deps);
    transactionRoutes(api, deps);
    otpRoutes(api, deps);
    depositRoutes(api, deps);
    withdrawalRoutes(api, deps);
    eventRoutes(api, deps);
    webhookRoutes(api, deps);
  });
  await registerAdminApi(app, deps, failures);
  await registerAdminConsole(app);

  await app.ready();
  return app;
}

import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_VERSION } from '../version.js';

/**
 * The OpenAPI document is generated from the route schemas that validate requests, so it cannot drift.
 * The spec's security scheme is "an API key made of three headers": three apiKey schemes required together.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Integrator API',
        version: API_VERSION,
        description:
          'Onboard end users and companies, run verification, move money and crypto, manage signing credentials and receive signed webhooks. ' +
          'Every /v1 request is signed: see the X-Pubkey, X-Timestamp and X-Signature headers. Errors are RFC 9457 problem details.',
      },
      components: {
        securitySchemes: {
          pubkey: { type: 'apiKey', in: 'header', name: 'X-Pubkey', description: 'Compressed SEC1 P-256 public key, hex with 0x' },
          timestamp: { type: 'apiKey', in: 'header', name: 'X-Timestamp', description: 'Unix time in seconds; within 60 s of server time' },
          signature: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Signature',
            description: 'DER ECDSA P-256 signature (hex, 0x) of SHA-256({timestamp}{METHOD}{path_and_query}{raw body})',
          },
        },
      },
      security: [{ pubkey: [], timestamp: [], signature: [] }],
    },
    refResolver: {
      // Shared schemas (Problem, Credential) appear under components.schemas by their $id.
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signedBodyFor, stampWithPasskey } from '../../packages/sdk/src/index.js';
import { buildUnsignedTransaction } from '../../packages/sdk/src/transactions.js';
import { EXAMPLE_IDS, EXAMPLE_VALUES } from '../../src/http/request-examples.js';
import type { Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { recipient } from '../harness/customers.js';
import { openApiChecker, type OpenApiDoc, type Operation } from '../harness/openapi.js';
import type { SeededIntegrator, TestServer } from '../harness/server.js';
import { startTenantsWithToken } from '../harness/tokens.js';
import { credentialsOf, realValues } from './openapi-examples/request-records.js';

const PLACEHOLDERS: Record<string, string> = { ...EXAMPLE_IDS, ...EXAMPLE_VALUES };
/** Any placeholder left in a JSON text: the ids' shared prefix, or one of the per-request values as a whole string. */
const LEFT = new RegExp(['0193a5c2-7d1e-7b3f-8a45-2f6c1d9e0b7', ...Object.values(EXAMPLE_VALUES).map((v) => `"${v}"`)].map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));

for (const backend of backends()) {
  describe(`request body examples of /openapi.json, sent [${backend}]`, () => {
    let server: TestServer | undefined;
    let chain: Anvil;
    let acme: SeededIntegrator;
    let doc: OpenApiDoc;
    let operations: Operation[];
    let assertConforms: ReturnType<typeof openApiChecker>['assertConforms'];

    before(async () => {
      // A sandbox as an integrator gets it: no WEBHOOK_ALLOW_PRIVATE, so the webhook example's URL is judged as in any
      // sandbox; no webhook worker, so nothing is delivered to it.
      const started = await startTenantsWithToken(backend, 8453, ['Acme'], { WEBHOOK_WORKER: '0' });
      ({ server, chain } = started);
      [acme] = started.tenants;
      const res = await fetch(`${server.url}/openapi.json`);
      doc = (await res.json()) as OpenApiDoc;
      ({ operations, assertConforms } = openApiChecker(doc));
    });
    after(() => server?.close());

    it('sends every example, placeholders replaced by real values (stamps by the SDK’s stampWithPasskey), and gets a success', async () => {
      const withBody = operations.filter((o) => o.op.requestBody?.content?.['application/json']);
      assert.equal(withBody.length, 45, 'operations with a JSON body');
      assert.deepEqual(withBody.filter((o) => o.op.requestBody!.content!['application/json']!.example === undefined).map((o) => o.op.operationId), [], 'operations without an example');
      const { plan, answers } = realValues(server!, acme, chain);
      assert.deepEqual(plan.map(([id]) => id).sort(), withBody.map((o) => o.op.operationId).sort(), 'every example is sent below, in an order that works');
      let asWritten = 0;
      for (const [operationId, make] of plan) {
        const { method, path, op } = withBody.find((o) => o.op.operationId === operationId)!;
        const example = op.requestBody!.content!['application/json']!.example as Record<string, unknown>;
        const real = await make();
        let text = JSON.stringify(example);
        for (const [name, value] of Object.entries(real.values ?? {})) text = text.replaceAll(PLACEHOLDERS[name]!, value);
        const body = JSON.parse(text) as Record<string, any>;
        if (body.signedBody) {
          // Made per request: the moment it is made, and for a transfer a real unsigned transaction of the wallet.
          body.signedBody.timestampMs = String(server!.clock.now().getTime());
          if (body.signedBody.type === 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2') {
            const built = await buildUnsignedTransaction({ rpcUrl: chain.url, chainId: 8453, from: body.signedBody.parameters.signWith, to: recipient(), value: 10n ** 15n });
            const made = signedBodyFor({ organizationId: body.signedBody.organizationId, walletAddress: body.signedBody.parameters.signWith, unsignedTransaction: built.unsignedTransaction, timestampMs: Number(body.signedBody.timestampMs) });
            assert.deepEqual(made, { ...body.signedBody, parameters: { ...body.signedBody.parameters, unsignedTransaction: built.unsignedTransaction } }, `${operationId}: the documented signedBody is signedBodyFor's`);
            body.signedBody = made;
          } else {
            const { signedBody: _s, webAuthnStamp: _w, approvalToken: _a, ...fields } = body;
            // delete-policy names its policy in the path: the member signs that id too, under the operation's name.
            const named = operationId === 'deletePolicy' ? { operation: 'delete-policy', policyId: real.path!.policyId } : { operation: path.split('/').pop() };
            assert.deepEqual(body.signedBody.parameters, { ...named, ...fields }, `${operationId}: the member signs the request's own fields`);
          }
        }
        if (body.webAuthnStamp) {
          assert.ok(real.passkey, `${operationId}: a passkey stamps it`);
          body.webAuthnStamp = await stampWithPasskey(body.signedBody, { credentials: credentialsOf(real.passkey) });
        }
        assert.doesNotMatch(JSON.stringify(body), LEFT, `${operationId}: every placeholder has a real value`);
        if (!LEFT.test(JSON.stringify(example))) {
          assert.deepEqual(body, example, `${operationId}: an example without placeholders is sent as written`);
          asWritten++;
        }
        let url = path;
        for (const [name, value] of Object.entries(real.path ?? {})) url = url.replace(`{${name}}`, value);
        if (/send-transaction/.test(url)) url += '?chain_id=8453';
        server!.clock.advance(1000);
        const res = await acme.client.request(method, url, { body });
        assert.ok(res.status >= 200 && res.status < 300, `${operationId} accepts its example: ${res.status} ${res.text.slice(0, 400)}`);
        assertConforms(method, url, res);
        answers.set(operationId, res);
      }
      // Those without placeholders: the credential ones, create-user, the accounts, an onboarding link, the webhook subscription and its changes, an address book entry.
      assert.equal(asWritten, 10, 'examples sent as written');
    });
  });
}

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseTransaction, serializeTransaction, type Hex } from 'viem';
import { generateSigningKey, serializeEip1559, signRequest, signingKey, verifyWebhook, WebhookVerificationError } from '../../packages/sdk/src/index.js';
import { generateEd25519KeyPair, privateKeyFromRaw, signWebhook, signWebhookHmac } from '../../src/crypto/webhook-signature.js';
import { importCompressedPublicKey, verifyDer } from '../../src/crypto/p256.js';
import { buildSignedMessage } from '../../src/crypto/request-signature.js';
import { openApiDocument, SDK, sdkSources } from '../../scripts/generate-sdk.js';

const RUNS = Math.max(1, Number(process.env.SDK_FUZZ_RUNS ?? 100));

describe('SDK (packages/sdk)', () => {
  it('its generated types and operation table are what the current server’s OpenAPI document gives (npm run sdk:generate)', async () => {
    const files = await sdkSources(await openApiDocument());
    for (const [name, text] of Object.entries(files)) assert.equal(readFileSync(join(SDK, name), 'utf8'), text, `${name} is stale: run npm run sdk:generate`);
  });

  it('builds to ESM with declarations, and the build exports the client, the errors and verifyWebhook', async () => {
    // Inside the repository, so the build resolves its dependencies from node_modules as an installed package would.
    const out = mkdtempSync(join(SDK, '.build-'));
    try {
      execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'packages/sdk/tsconfig.json', '--outDir', out], { stdio: 'pipe' });
      const built = (await import(join(out, 'index.js'))) as Record<string, unknown>;
      for (const name of ['createIntegratorClient', 'IntegratorApiError', 'IntegratorConnectionError', 'verifyWebhook', 'signRequest', 'OPERATIONS']) assert.ok(built[name], name);
      assert.match(readFileSync(join(out, 'index.d.ts'), 'utf8'), /createIntegratorClient/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('request signatures verify with the server’s own verifier, for any path, method and body (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE'), fc.webPath(), fc.option(fc.json(), { nil: undefined }), fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }), (method, path, body, ts) => {
        const { privateKey } = generateSigningKey();
        const key = signingKey(privateKey);
        const headers = signRequest(key, ts, method, `/v1${path}`, body);
        const message = buildSignedMessage(String(ts), method, `/v1${path}`, body);
        assert.ok(verifyDer(importCompressedPublicKey(headers['X-Pubkey']), message, Buffer.from(headers['X-Signature'].slice(2), 'hex')));
        assert.equal(headers['X-Timestamp'], String(ts));
        // Any other body does not verify.
        assert.ok(!verifyDer(importCompressedPublicKey(headers['X-Pubkey']), buildSignedMessage(String(ts), method, `/v1${path}`, `${body ?? ''}x`), Buffer.from(headers['X-Signature'].slice(2), 'hex')));
      }),
      { numRuns: RUNS },
    );
  });

  it('verifyWebhook accepts what the server signs, Ed25519 (v1a) and HMAC (v1), and refuses tampering, other keys and stale timestamps (property)', () => {
    const pair = generateEd25519KeyPair();
    const publicKey = `whpk_${pair.publicKey}`;
    const secret = Buffer.alloc(32, 9);
    const whsec = `whsec_${secret.toString('base64')}`;
    fc.assert(
      fc.property(fc.uuid(), fc.json(), fc.integer({ min: -299, max: 299 }), (id, body, skew) => {
        const now = 1_800_000_000;
        const ts = now + skew;
        const headers = (signature: string) => ({ 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signature });
        const ed = signWebhook([privateKeyFromRaw(pair.privateKey)], id, ts, body);
        const mac = signWebhookHmac([secret], id, ts, body);
        assert.deepEqual(verifyWebhook(body, headers(ed), publicKey, { now }), JSON.parse(body));
        assert.deepEqual(verifyWebhook(Buffer.from(body), new Headers(headers(mac)), [publicKey, whsec], { now }), JSON.parse(body));
        assert.throws(() => verifyWebhook(`${body} `, headers(ed), publicKey, { now }), WebhookVerificationError);
        assert.throws(() => verifyWebhook(body, headers(mac), `whsec_${Buffer.alloc(32, 1).toString('base64')}`, { now }), WebhookVerificationError);
        assert.throws(() => verifyWebhook(body, headers(ed), whsec, { now }), WebhookVerificationError, 'a secret does not verify an Ed25519 signature');
        assert.throws(() => verifyWebhook(body, headers(ed), publicKey, { now: now + 600 }), WebhookVerificationError);
      }),
      { numRuns: RUNS },
    );
    assert.throws(() => verifyWebhook('{}', {}, publicKey), /required/);
  });

  it('serializes EIP-1559 transactions byte for byte as viem does, and viem parses them back (property)', () => {
    const uint = (bits: number) => fc.bigInt({ min: 0n, max: 2n ** BigInt(bits) - 1n });
    fc.assert(
      fc.property(
        fc.record({
          chainId: fc.integer({ min: 1, max: 2 ** 31 }),
          nonce: fc.integer({ min: 0, max: 2 ** 40 }),
          maxPriorityFeePerGas: uint(64),
          feeAboveTip: uint(64),
          gas: uint(64),
          to: fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
          value: uint(256),
          data: fc.uint8Array({ maxLength: 300 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
        }),
        ({ feeAboveTip, ...fields }) => {
          const tx = { ...fields, maxFeePerGas: fields.maxPriorityFeePerGas + feeAboveTip };
          const ours = serializeEip1559(tx);
          const viems = serializeTransaction({ type: 'eip1559', ...tx, to: tx.to as Hex, data: tx.data as Hex });
          assert.equal(ours, viems);
          const parsed = parseTransaction(ours as Hex);
          assert.equal(parsed.value ?? 0n, tx.value);
          assert.equal(parsed.nonce ?? 0, tx.nonce);
        },
      ),
      { numRuns: RUNS },
    );
    assert.throws(() => serializeEip1559({ chainId: 1, nonce: 0, maxPriorityFeePerGas: 2n, maxFeePerGas: 1n, gas: 21_000n, to: `0x${'1'.repeat(40)}`, value: 0n }), /priority fee above the fee cap/);
  });
});

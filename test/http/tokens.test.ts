import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getAddress } from 'viem';
import { ChainRegistry } from '../../src/chain/chain-client.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { loadTokenRegistry, TokenRegistryError } from '../../src/domain/tokens/token-registry.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';
import { backends } from '../harness/backends.js';
import { deployVault } from '../harness/vaults.js';
import { runToExit } from '../harness/process.js';
import { useTenantsWithToken } from '../harness/tokens.js';

// The token registry (docs/tokens.md): TOKENS read at start, each entry confirmed on its chain (an ERC-20 there, the
// symbol configured), every mistake reported at once; list-tokens shows what was confirmed.

const ADDRESS = '0x' + '11'.repeat(20);

describe('TOKENS in the configuration', () => {
  const env = {
    CHAIN_RPC_URLS: '8453=http://127.0.0.1:1',
    TOKENS: `8453:USDC:${ADDRESS},8453:usdc:0x${'22'.repeat(20)},1:EURC:${ADDRESS},8453:EURC:nope,8453:EURC:${ADDRESS}`,
  };
  const NAMED = [
    /^TOKENS: "8453:usdc:0x2{40}": usdc is listed twice on chain 8453$/,
    /^TOKENS: "1:EURC:0x1{40}": chain 1 is not in CHAIN_RPC_URLS$/,
    /^TOKENS: "8453:EURC:nope" is not chainId:SYMBOL:0x<40 hex digits>$/,
    /^TOKENS: "8453:EURC:0x1{40}": 0x1{40} is listed twice on chain 8453$/,
  ];

  it('every malformed, duplicate or chainless entry is named, and kept for the start-up check to name with what the chains say', () => {
    const config = loadConfig(env);
    assert.deepEqual(config.tokens, [{ chainId: 8453, symbol: 'USDC', address: ADDRESS }]);
    assert.equal(config.tokenProblems.length, NAMED.length, config.tokenProblems.join('\n'));
    NAMED.forEach((re, i) => assert.match(config.tokenProblems[i]!, re));
  });

  it('with another mistake in the configuration, they are listed in their place with it', () => {
    assert.throws(
      () => loadConfig({ ...env, PORT: 'x', OTP_MAX_PER_HOUR: '0' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        const at = err.problems.findIndex((p) => p.startsWith('TOKENS'));
        assert.deepEqual(err.problems.slice(at, at + NAMED.length).map((p, i) => NAMED[i]!.test(p)), NAMED.map(() => true), err.message);
        assert.ok(err.problems[0]!.startsWith('PORT'), 'PORT is read before TOKENS');
        assert.ok(err.problems.at(-1)!.startsWith('OTP_MAX_PER_HOUR'), 'and OTP_MAX_PER_HOUR after');
        return true;
      },
    );
  });

  it('absent or empty: no tokens', () => {
    assert.deepEqual(loadConfig({}).tokens, []);
    assert.deepEqual(loadConfig({ TOKENS: ' ' }).tokens, []);
  });
});

describe('TOKENS confirmed on the chain at start-up', () => {
  let chain: Anvil;
  before(async () => {
    chain = await startAnvil(31337);
  });
  after(() => chain?.stop());

  it('an address without code, a wrong symbol and an unreachable chain: all named together', async () => {
    const { token, vault } = await deployVault(chain);
    const registry = new ChainRegistry(new Map([[31337, chain.url], [8453, 'http://127.0.0.1:1']]), 2_000);
    const entries = [
      { chainId: 31337, symbol: 'dUSD', address: token.toLowerCase() },
      { chainId: 31337, symbol: 'USDC', address: ADDRESS },
      { chainId: 31337, symbol: 'EURC', address: token.toLowerCase() },
      { chainId: 8453, symbol: 'USDC', address: ADDRESS },
    ];
    await assert.rejects(loadTokenRegistry(entries, registry), (err: unknown) => {
      assert.ok(err instanceof TokenRegistryError);
      assert.equal(err.problems.length, 3, err.message);
      assert.match(err.problems[0]!, /31337:USDC:0x1111.*is not an ERC-20/);
      assert.match(err.problems[1]!, /31337:EURC:.*the contract's symbol is "dUSD", not EURC/);
      assert.match(err.problems[2]!, /8453:USDC:.*its chain did not answer/);
      return true;
    });
    const ok = await loadTokenRegistry([{ chainId: 31337, symbol: 'DUSD', address: token.toLowerCase() }, { chainId: 31337, symbol: 'dvUSD', address: vault.toLowerCase() }], registry);
    assert.deepEqual(ok.list(), [
      { chainId: 31337, symbol: 'DUSD', address: getAddress(token), decimals: 6 },
      { chainId: 31337, symbol: 'dvUSD', address: getAddress(vault), decimals: 6 },
    ]);
    assert.equal(ok.symbol(31337, 'dusd')?.address, getAddress(token));
    assert.equal(ok.address(31337, token.toUpperCase().replace('0X', '0x'))?.symbol, 'DUSD');
  });

  it('the server started with an entry listed twice, a chain not configured and an address that is no ERC-20: exit 78 naming all three', async () => {
    const { token } = await deployVault(chain);
    const run = await runToExit('src/main.ts', [], {
      CHAIN_RPC_URLS: `31337=${chain.url}`,
      TOKENS: `31337:DUSD:${token},31337:dusd:${token},1:EURC:${ADDRESS},31337:USDC:${ADDRESS}`,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'tokens-')),
      PORT: '0',
    });
    assert.equal(run.code, 78, run.stderr);
    const lines = run.stderr.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 2), [
      `configuration error: TOKENS: "31337:dusd:${token.toLowerCase()}": dusd is listed twice on chain 31337`,
      `configuration error: TOKENS: "1:EURC:${ADDRESS}": chain 1 is not in CHAIN_RPC_URLS`,
    ]);
    assert.match(lines[2]!, new RegExp(`^configuration error: TOKENS: 31337:USDC:${ADDRESS}: ${ADDRESS} on chain 31337 is not an ERC-20 \\(`));
    assert.equal(lines.length, 3, run.stderr);
  });
});

for (const backend of backends()) {
  describe(`list-tokens [${backend}]`, () => {
    const { tenants: [acme], token } = useTenantsWithToken(backend, 8453, ['Acme']);

    it('lists the confirmed tokens, on every chain or one; another chain has none', async () => {
      const all = await acme.client.get('/v1/query/list-tokens');
      assert.equal(all.status, 200, all.text);
      assert.deepEqual(all.body, { data: [{ chainId: 8453, symbol: 'USDC', address: getAddress(token.address), decimals: 6 }] });
      assert.deepEqual((await acme.client.get('/v1/query/list-tokens?chain_id=8453')).body, all.body);
      assert.deepEqual((await acme.client.get('/v1/query/list-tokens?chain_id=1')).body, { data: [] });
      const bad = await acme.client.get('/v1/query/list-tokens?chain_id=base');
      assert.deepEqual([bad.status, bad.body.errors?.[0]?.pointer], [400, '/chain_id'], bad.text);
    });
  });
}

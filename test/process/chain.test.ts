import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseEther, parseUnits } from 'viem';
import { ChainRegistry } from '../../src/chain/chain-client.js';
import { encodeBalanceOf } from '../../src/chain/erc20.js';
import { loadTokenRegistry } from '../../src/domain/tokens/token-registry.js';
import { treasuryAddressFor } from '../../src/chain/sandbox-treasury.js';
import { loadConfig } from '../../src/config.js';
import { openSystem } from '../../src/composition-root.js';
import { treasuryFor } from '../../src/chain/treasury.js';
import { freePort } from '../harness/process.js';

describe('npm run chain: a local anvil with a demo USDC and the sandbox treasury funded', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'chain-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('derives the treasury exactly as the server does, from the same environment', async () => {
    const env = { APP_ENV: 'sandbox', LOG_LEVEL: 'silent', DATA_DIR: dataDir };
    const address = treasuryAddressFor(env);
    const system = await openSystem(loadConfig(env));
    try {
      assert.equal(address, treasuryFor({ key: undefined, sandbox: true, secrets: system.secrets })!.address);
    } finally {
      await system.close();
    }
    assert.equal(treasuryAddressFor({ ...env, APP_ENV: 'production', ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION: '1', ENCRYPTION_KEY: 'ab'.repeat(32), WEBAUTHN_RP_IDS: 'x.example', WEBAUTHN_ORIGINS: 'https://x.example' }), undefined, 'production without a treasury key has none');
  });

  it('starts anvil, deploys the demo USDC, funds that treasury with ETH and USDC, and prints the CHAIN_RPC_URLS and TOKENS to use', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/chain.ts'], { env: { ...process.env, CHAIN_PORT: String(port), DATA_DIR: dataDir, APP_ENV: 'sandbox' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const ready = out.split('\n').find((l) => l.startsWith('Ready: '));
          if (ready) resolve(ready);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      assert.match(line, new RegExp(`CHAIN_RPC_URLS=31337=http://127\\.0\\.0\\.1:${port}`));
      const treasury = treasuryAddressFor({ APP_ENV: 'sandbox', DATA_DIR: dataDir });
      assert.ok(line.includes(treasury!));
      const res = await fetch(`http://127.0.0.1:${port}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [treasury, 'latest'] }) });
      assert.equal(BigInt(((await res.json()) as { result: string }).result), parseEther('1000000'));
      // The demo USDC at the development account's first deployment address, the treasury holding a million of it.
      const tokens = /TOKENS=31337:USDC:(0x[0-9a-fA-F]{40})/.exec(line);
      assert.equal(tokens?.[1], '0x5FbDB2315678afecb367f032d93F642f64180aa3', line);
      const call = { to: tokens![1], data: encodeBalanceOf(treasury!) };
      const held = await fetch(`http://127.0.0.1:${port}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_call', params: [call, 'latest'] }) });
      assert.equal(BigInt(((await held.json()) as { result: string }).result), parseUnits('1000000', 6));
      const listed = await loadTokenRegistry([{ chainId: 31337, symbol: 'USDC', address: tokens![1]!.toLowerCase() }], new ChainRegistry(new Map([[31337, `http://127.0.0.1:${port}`]])));
      assert.deepEqual(listed.list().map((t) => [t.symbol, t.decimals]), [['USDC', 6]], 'the server would confirm the printed TOKENS');
    } finally {
      child.kill('SIGTERM');
    }
  });
});

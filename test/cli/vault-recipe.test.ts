import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encodeFunctionData, erc20Abi, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { run, UsageError } from '../../src/cli/admin-commands.js';
import { vaultIdOf } from '../../src/domain/vaults/vault-config.js';
import { startAnvil, type Anvil } from '../harness/anvil.js';

/** The sh block of docs/products.md#a-local-demo-vault-sandbox: its admin commands, as a newcomer copies them. */
function recipe(): string[][] {
  const doc = readFileSync('docs/products.md', 'utf8');
  const block = doc.slice(doc.indexOf('### A local demo vault'));
  const sh = /```sh\n([\s\S]*?)```/.exec(block)![1]!;
  return sh
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.startsWith('npm run -s admin -- '))
    .map((line) => line.slice('npm run -s admin -- '.length).split(/\s+/));
}

describe('the demo vault recipe (operator CLI commands, in process, on a PGlite data directory and anvil 31337)', () => {
  let anvil: Anvil;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    anvil = await startAnvil(31337);
    dataDir = mkdtempSync(join(tmpdir(), 'vault-recipe-'));
    env = { APP_ENV: 'sandbox', LOG_LEVEL: 'silent', DATA_DIR: dataDir, CHAIN_RPC_URLS: `31337=${anvil.url}` };
  });
  after(async () => {
    await anvil?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const balanceOf = async (token: string, owner: string) =>
    BigInt(await anvil.rpc<string>('eth_call', [{ to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner as Address] }) }, 'latest']));

  it('runs the documented commands: deploy and register, fund a wallet (with gas), yield into the vault; the vault is listed', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const steps = recipe();
    assert.deepEqual(
      steps.map((s) => s.slice(0, 2).join(' ')),
      ['vaults deploy-demo', 'vaults mint-demo', 'vaults mint-demo'],
    );
    const deployed = (await run(steps[0]!, env)) as { vaultId: string; address: string; token: string; created: boolean; asset: { symbol: string } };
    assert.equal(deployed.vaultId, vaultIdOf(31337, deployed.address));
    assert.deepEqual([deployed.created, deployed.asset.symbol], [true, 'dUSD']);
    const fill = (args: string[]) => args.map((a) => (a === 'TOKEN' ? deployed.token : a === 'WALLET' ? wallet : a === 'VAULT' ? deployed.address : a));
    const funded = (await run(fill(steps[1]!), env)) as { gasSent: string };
    assert.equal(await balanceOf(deployed.token, wallet), 1000n * 10n ** 6n);
    assert.equal(funded.gasSent, String(10n ** 17n), 'a local wallet gets gas');
    await run(fill(steps[2]!), env);
    assert.equal(await balanceOf(deployed.token, deployed.address), 10n * 10n ** 6n);

    const listed = (await run(['vaults', 'list'], env)) as { vaults: { vaultId: string }[] };
    assert.deepEqual(listed.vaults.map((v) => v.vaultId), [deployed.vaultId]);
    const again = (await run(['vaults', 'add', '--chain-id', '31337', '--address', deployed.address], env)) as { created: boolean };
    assert.equal(again.created, false, 'registering again changes nothing');
    assert.deepEqual(await run(['vaults', 'remove', '--vault-id', deployed.vaultId], env), { vaultId: deployed.vaultId, removed: true });
    assert.deepEqual(((await run(['vaults', 'list'], env)) as { vaults: unknown[] }).vaults, []);
  });

  it('refuses what it cannot do, before touching the chain or the database', async () => {
    await assert.rejects(run(['vaults', 'deploy-demo', '--chain-id', '8453'], env), (err: unknown) => err instanceof UsageError && /not in CHAIN_RPC_URLS/.test(err.message));
    await assert.rejects(run(['vaults', 'deploy-demo', '--chain-id', '8453'], { ...env, CHAIN_RPC_URLS: `8453=${anvil.url}` }), (err: unknown) => err instanceof UsageError && /--deployer-key is required/.test(err.message));
    await assert.rejects(run(['vaults', 'add', '--chain-id', '31337', '--address', '0x1234'], env), UsageError);
    await assert.rejects(run(['vaults', 'add', '--chain-id', '31337', '--address', privateKeyToAccount(generatePrivateKey()).address], env), (err: unknown) => (err as { code?: string }).code === 'vault_unreadable');
    await assert.rejects(run(['vaults', 'mint-demo', '--chain-id', '31337', '--token', `0x${'1'.repeat(40)}`, '--to', `0x${'2'.repeat(40)}`, '--amount', '0'], env), UsageError);
  });
});

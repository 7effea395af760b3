/**
 * `npm run bench:policies` (docs/benchmarks.md#spending-policies): what judging a transaction against spending
 * policies costs, on a real server's database (BENCH_BACKEND, postgres by default; pglite too) with anvil and a listed
 * token, through the same function every signing path calls (`judgeSpending`, src/domain/policies/enforce.ts).
 *
 * One account carries POLICY_BENCH_POLICIES (100) policies, each of four rules (a USDC cap per transaction and over
 * 24 hours, allowed destinations naming the recipient among 20, a new-destination delay the recipient has waited
 * out in the address book); another account has none. POLICY_BENCH_JUDGEMENTS (2,000) sequential judgements each,
 * of a USDC transfer to the recipient:
 *
 * - none: the account without a policy (what every signing path pays when no policy covers it: one indexed read);
 * - before signing: the first judgement, no lock, nothing written;
 * - recorded: the authoritative one, in a database transaction of its own with the account's advisory lock, the
 *   window sums read and the amount reserved, committed (BEGIN and COMMIT included; the signing path shares them with
 *   the transaction's own writes).
 *
 * Prints p50 / p95 / p99 ms of each and the difference to `none`; the goal: evaluation adds ≤ 1 ms at p99 with 100
 * policies. Writes bench/results/policies-latest.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { serializeTransaction, type Address } from 'viem';
import { parseUnsignedTransaction } from '../src/chain/custody-signer.js';
import { encodeTransfer } from '../src/chain/erc20.js';
import { judgeSpending } from '../src/domain/policies/enforce.js';
import { policyAssets } from '../src/domain/policies/policy-assets.js';
import { TokenRegistry } from '../src/domain/tokens/token-registry.js';
import { createCustomer, recipient } from '../test/harness/customers.js';
import type { TestServer } from '../test/harness/server.js';
import { startTenantsWithToken } from '../test/harness/tokens.js';
import { ROOT } from './lib/children.js';
import { runBench } from './lib/entry.js';
import { positiveInt } from './lib/env.js';

const POLICIES = positiveInt('POLICY_BENCH_POLICIES', 100);
const JUDGEMENTS = positiveInt('POLICY_BENCH_JUDGEMENTS', 2_000);
const BACKEND = process.env.BENCH_BACKEND === 'pglite' ? 'pglite' : 'postgres';
const GOAL_P99_MS = 1;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

let server: TestServer | undefined;

async function main(): Promise<number> {
  const started = await startTenantsWithToken(BACKEND, 8453, ['Acme']);
  server = started.server;
  const [acme] = started.tenants;
  const { token } = started;
  const tokens = new TokenRegistry([{ chainId: 8453, symbol: token.symbol, address: token.address, decimals: token.decimals }]);
  const deps = { assets: policyAssets(server.chains, tokens), tokens };
  const [covered, bare] = [await createCustomer(server, acme), await createCustomer(server, acme)];
  const to = recipient();
  server.clock.advance(1000);
  const entry = await acme.client.post(`/v1/accounts/${covered.accountId}/address-book`, { address: to, label: 'bench' });
  if (entry.status !== 201) throw new Error(`address book: ${entry.status} ${entry.text}`);
  for (let i = 0; i < POLICIES; i++) {
    server.clock.advance(1000);
    const res = await acme.client.post('/v1/policies', {
      accountId: covered.accountId,
      rules: [
        { type: 'max_amount', asset: token.symbol, chainId: 8453, amount: '1000000000', window: 'transaction' },
        { type: 'max_amount', asset: token.symbol, chainId: 8453, amount: '1000000000', window: '24h' },
        { type: 'allowed_destinations', addresses: [...Array.from({ length: 19 }, () => recipient()), to] },
        { type: 'new_destination_delay', hours: 1 },
      ],
    });
    if (res.status !== 201) throw new Error(`policy ${i}: ${res.status} ${res.text}`);
  }
  // The recipient waited out its delay (the address book entry was made before any delay applied: usable at once).
  const unsigned = parseUnsignedTransaction(
    serializeTransaction({ chainId: 8453, type: 'eip1559', nonce: 0, to: token.address as Address, value: 0n, data: encodeTransfer(to as Address, 1_000_000n), gas: 100_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n }),
  );
  const db = server.database.db;
  const now = () => server!.clock.now();
  const subject = (accountId: string, walletAddress: string) => ({ integratorId: acme.integratorId, accountId, walletAddress, unsigned });
  const time = async (label: string, run: () => Promise<unknown>) => {
    for (let i = 0; i < Math.min(200, JUDGEMENTS); i++) await run();
    const samples: number[] = [];
    for (let i = 0; i < JUDGEMENTS; i++) {
      const t0 = performance.now();
      const denial = await run();
      samples.push(performance.now() - t0);
      if (denial) throw new Error(`${label}: refused: ${JSON.stringify(denial)}`);
    }
    samples.sort((a, b) => a - b);
    return { label, p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), p99: quantile(samples, 0.99) };
  };
  const none = await time('none', () => judgeSpending(db, deps, subject(bare.accountId, bare.walletAddress), now()));
  const before = await time('before signing', () => judgeSpending(db, deps, subject(covered.accountId, covered.walletAddress), now()));
  const recorded = await time('recorded', () => db.transaction((tx) => judgeSpending(tx, deps, subject(covered.accountId, covered.walletAddress), now(), randomUUID())));
  const rows = [none, before, recorded];
  console.log(`Spending policies on ${BACKEND}: ${POLICIES} policies of 4 rules on one account, ${JUDGEMENTS} sequential judgements of a USDC transfer each`);
  console.log('| Judgement | p50 ms | p95 ms | p99 ms | p99 over none ms |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.label} | ${r.p50.toFixed(3)} | ${r.p95.toFixed(3)} | ${r.p99.toFixed(3)} | ${(r.p99 - none.p99).toFixed(3)} |`);
  const added = before.p99 - none.p99;
  console.log(`Goal: evaluation adds ≤ ${GOAL_P99_MS} ms at p99 before signing: ${added <= GOAL_P99_MS ? 'PASS' : 'MISS'} (${added.toFixed(3)} ms)`);
  mkdirSync(`${ROOT}/bench/results`, { recursive: true });
  writeFileSync(`${ROOT}/bench/results/policies-latest.json`, `${JSON.stringify({ at: new Date().toISOString(), backend: BACKEND, policies: POLICIES, judgements: JUDGEMENTS, rows }, null, 2)}\n`);
  return 0;
}

await runBench('bench:policies', main, async () => {
  await server?.close();
  server = undefined;
});

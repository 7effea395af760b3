/**
 * `npm run bench:hsm`: custody signatures per second through SoftHSM2 (PKCS#11, CKM_ECDSA on secp256k1), in-process,
 * beside the sealed backend on the same machine:
 *
 * - `token sign`: CustodyToken.sign alone (C_SignInit, then C_SignAsync on libuv's pool), BENCH_HSM_SECONDS (5) per
 *   row, with 1, 2, 4 and 8 callers signing back to back over a pool of as many sessions (4 at most: the default);
 * - `transaction`: the whole custody signature of an EIP-1559 transfer as the server makes it (keccak of the unsigned
 *   serialization, the token's signature, low s, the recovery id found against the public key, the serialization);
 * - `sealed`: the same transfer signed the sealed way (the key opened from the database's sealed copy) for scale.
 *
 * Beside each row: the event loop's p99 delay while it ran (C_SignAsync keeps signing off the loop; a synchronous
 * C_Sign would show here) and the process's CPU. Writes bench/results/hsm-latest.json; needs softhsm2 installed.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { TransactionSerializable } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { sealedCustodyKeys, tokenCustodyKeys } from '../src/chain/custody-keys.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import { CustodyToken } from '../src/crypto/pkcs11/token.js';
import { createTestToken, SOFTHSM_MODULE, softHsmMissing } from '../test/harness/softhsm.js';
import { ROOT } from './lib/children.js';
import { positiveInt } from './lib/env.js';

const SECONDS = positiveInt('BENCH_HSM_SECONDS', 5);
const CALLERS = [1, 2, 4, 8];

interface Row {
  what: 'token sign' | 'transaction' | 'sealed';
  callers: number;
  sessions: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  loopDelayP99Ms: number;
  cpuPct: number;
}

/** `callers` loops running `work` back to back for SECONDS; throughput, latencies, loop delay and CPU. */
async function measure(what: Row['what'], callers: number, sessions: number, work: () => Promise<unknown>): Promise<Row> {
  const latencies: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await work();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = performance.now() - started;
  loop.disable();
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  return {
    what,
    callers,
    sessions,
    perSecond: (latencies.length * 1000) / elapsed,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    loopDelayP99Ms: loop.percentile(99) / 1e6,
    cpuPct: ((used.user + used.system) / 1000 / elapsed) * 100,
  };
}

const transfer = (nonce: number): TransactionSerializable => ({
  chainId: 8453,
  type: 'eip1559',
  nonce,
  to: `0x${randomBytes(20).toString('hex')}`,
  value: 1n,
  gas: 21_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000n,
});

async function main(): Promise<void> {
  if (softHsmMissing('bench:hsm')) throw new Error(`${SOFTHSM_MODULE} is needed (apt-get install softhsm2)`);
  const loadBefore = loadavg();
  const testToken = await createTestToken();
  const secrets = new SecretBox(randomBytes(32));
  const rows: Row[] = [];
  let nonce = 0;
  for (const callers of CALLERS) {
    const sessions = Math.min(callers, 4);
    const token = await CustodyToken.open({ module: SOFTHSM_MODULE, tokenLabel: testToken.label, pin: () => testToken.pin, sessions });
    const custody = await tokenCustodyKeys(secrets, token);
    try {
      const wallet = { id: 'bench', ...(await custody.newWalletKey(`bench-${callers}`)) };
      const digest = randomBytes(32);
      await token.sign(wallet.keyLabel!, digest);
      rows.push(await measure('token sign', callers, sessions, () => token.sign(wallet.keyLabel!, digest)));
      rows.push(await measure('transaction', callers, sessions, () => custody.signForWallet(wallet, transfer(nonce++))));
    } finally {
      custody.close();
    }
    console.error(`${callers} caller(s): done`);
  }
  const sealed = sealedCustodyKeys(secrets);
  const sealedWallet = { id: 'bench-sealed', keyLabel: null, publicKey: null, privateKeySealed: secrets.seal(generatePrivateKey(), 'wallet:bench-sealed') };
  rows.push(await measure('sealed', 1, 0, () => sealed.signForWallet(sealedWallet, transfer(nonce++))));
  rows.push(await measure('sealed', 4, 0, () => sealed.signForWallet(sealedWallet, transfer(nonce++))));

  console.log(`\ncustody signatures, SoftHSM2 ${SOFTHSM_MODULE}, ${SECONDS} s per row, load average at the start ${loadBefore.map((l) => l.toFixed(2)).join(' ')}\n`);
  console.log('| What | Callers | Sessions | signatures/s | p50 ms | p99 ms | event loop p99 delay ms | process CPU |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.what} | ${r.callers} | ${r.sessions || ''} | ${Math.round(r.perSecond).toLocaleString('en-US')} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.loopDelayP99Ms.toFixed(1)} | ${Math.round(r.cpuPct)} % |`);
  mkdirSync(`${ROOT}/bench/results`, { recursive: true });
  writeFileSync(`${ROOT}/bench/results/hsm-latest.json`, `${JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, loadAverageAtStart: loadBefore, loadAverageAtEnd: loadavg(), rows }, null, 2)}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});

/**
 * `BENCH_TX_POLICIES=3 npm run bench:transactions` (docs/benchmarks.md#spending-policies): a transfer's CPU with three
 * spending policies in force against none, on one server. A second group of as many customers as the first has its
 * accounts covered by three policies; both groups send 1 wei to the same eight recipients, entered in the covered
 * accounts' address books before the policies exist (so usable at once), and the measured rounds alternate between the
 * groups (the order swapped every round: this machine's speed drifts within minutes). The three policies:
 *
 * 1. max_amount ETH per transaction (1 ETH);
 * 2. max_amount ETH over 24 hours and over 7 days (1,000 ETH each): the window sums are read, the amount reserved;
 * 3. allowed_destinations (the eight among 20) and a new_destination_delay of 1 hour: the destinations' standing read.
 *
 * Every submission is then judged twice (before signing, and recorded with the account's lock and reservation).
 */
import { recipient } from '../../test/harness/customers.js';
import type { Backend } from './backend.js';
import { postJson } from './signing.js';

/** 0 (the default: no policy group) or 3. */
export const TX_POLICIES = (() => {
  const raw = process.env.BENCH_TX_POLICIES ?? '0';
  if (raw !== '0' && raw !== '3') throw new Error(`BENCH_TX_POLICIES must be 0 or 3 (got "${raw}")`);
  return Number(raw);
})();

/** Where every payer sends when the policy groups run (a payer's nth transfer goes to the (n mod 8)th). */
export const RECIPIENTS = Array.from({ length: 8 }, () => recipient());

/** Enters the recipients in the account's address book, then creates the three policies over it. */
export async function coverWithPolicies(backend: Backend, accountId: string): Promise<void> {
  for (const address of RECIPIENTS) await postJson(backend.baseUrl, backend.key, `/v1/accounts/${accountId}/address-book`, { address, label: 'bench' });
  const eth = (amount: string, window: string) => ({ type: 'max_amount', asset: 'ETH', chainId: 8453, amount, window });
  const policies = [
    [eth('1', 'transaction')],
    [eth('1000', '24h'), eth('1000', '7d')],
    [
      { type: 'allowed_destinations', addresses: [...RECIPIENTS, ...Array.from({ length: 12 }, () => recipient())] },
      { type: 'new_destination_delay', hours: 1 },
    ],
  ];
  for (const rules of policies) await postJson(backend.baseUrl, backend.key, '/v1/policies', { accountId, rules });
}

/** A group's API CPU per submission (ms), the median of its rounds: the API's % of a core over its submissions/s. */
export function cpuMsPerSubmission(rounds: { serverCpuPct?: number; reqPerSec: number }[]): number | undefined {
  const values = rounds.filter((r) => r.serverCpuPct !== undefined && r.reqPerSec > 0).map((r) => (r.serverCpuPct! * 10) / r.reqPerSec);
  if (values.length === 0) return undefined;
  values.sort((a, b) => a - b);
  const mid = Math.floor(values.length / 2);
  return values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

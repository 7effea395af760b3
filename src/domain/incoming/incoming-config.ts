import { blockTimeMs } from '../tokens/balance-book.js';

/** The incoming watcher's settings (docs/incoming.md#settings). */
export interface IncomingConfig {
  /** CHAIN_CONFIRMATIONS as given (chain id → blocks); chains not named take confirmationsFor's default. */
  confirmations: ReadonlyMap<number, number>;
  /** INCOMING_POLL_MS: how often each chain's head is asked for; undefined: half the chain's block time (250 ms to 5 s). */
  pollMs: number | undefined;
  /** INCOMING_MAX_BLOCKS: the most blocks one round reads and records (a catch-up after an outage goes in such steps). */
  maxBlocks: number;
}

/**
 * Blocks a transfer needs (its own included) before it is completed, on the chains this service knows by id: about
 * where a reorg stops being seen in practice (docs/incoming.md#confirmations). Any other chain: 12. anvil's 31337: 1,
 * a local node reorgs only when told to (tests set CHAIN_CONFIRMATIONS).
 */
const DEFAULT_CONFIRMATIONS: Record<number, number> = { 1: 12, 11155111: 6, 10: 10, 8453: 10, 84532: 6, 42161: 20, 137: 128, 56: 15, 43114: 12, 31337: 1 };
const OTHER_CHAINS = 12;

export function confirmationsFor(config: Pick<IncomingConfig, 'confirmations'>, chainId: number): number {
  return config.confirmations.get(chainId) ?? DEFAULT_CONFIRMATIONS[chainId] ?? OTHER_CHAINS;
}

export function pollMsFor(config: Pick<IncomingConfig, 'pollMs'>, chainId: number): number {
  return config.pollMs ?? Math.min(5_000, Math.max(250, Math.round(blockTimeMs(chainId) / 2)));
}

/**
 * CHAIN_CONFIRMATIONS: comma-separated `chainId=n` (example `8453=20,1=64`), n from 1 to 1,000, each chain once and in
 * CHAIN_RPC_URLS. Every bad entry is reported.
 */
export function parseConfirmations(raw: string | undefined, chainIds: ReadonlySet<number>): { confirmations: Map<number, number>; problems: string[] } {
  const confirmations = new Map<number, number>();
  const problems: string[] = [];
  for (const entry of (raw ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const m = /^([0-9]{1,15})=([0-9]{1,4})$/.exec(entry);
    const chainId = Number(m?.[1]);
    const blocks = Number(m?.[2]);
    if (!m) problems.push(`"${entry}" is not chainId=blocks`);
    else if (blocks < 1 || blocks > 1_000) problems.push(`"${entry}": the blocks must be from 1 to 1000`);
    else if (!chainIds.has(chainId)) problems.push(`"${entry}": chain ${chainId} is not in CHAIN_RPC_URLS`);
    else if (confirmations.has(chainId)) problems.push(`"${entry}": chain ${chainId} is named twice`);
    else confirmations.set(chainId, blocks);
  }
  return { confirmations, problems };
}

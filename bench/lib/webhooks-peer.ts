/**
 * The webhooks bench's peer (PostgreSQL only): the same burst and drain with the deliveries queued and made by
 * pg-boss 10 (bench/peers/pg-boss.ts), our worker stopped meanwhile.
 */
import { PgBossPeer } from '../peers/pg-boss.js';
import { warmUp } from './webhooks-measure.js';
import { burst, drain } from './webhooks-phases.js';
import type { ReceiverClient } from './webhooks-receiver.js';
import { PEER_WORKERS, WARMUP_EVENTS } from './webhooks-settings.js';
import type { OurPath } from './webhooks-setup.js';
import type { PhaseResult, Setup } from './webhooks-types.js';

async function startPeer(s: Setup): Promise<PgBossPeer> {
  return PgBossPeer.create({
    databaseUrl: s.databaseUrl!,
    database: s.database,
    secrets: s.secrets,
    concurrency: s.config.concurrency,
    timeoutMs: s.config.timeoutMs,
    registrations: PEER_WORKERS,
    onError: (err) => s.log.error({ err }, 'pg-boss peer'),
  });
}

/** Peer burst and peer drain, each result handed to `step`; returns the peer's settings. Our worker runs again after. */
export async function peerPhases(s: Setup, receiver: ReceiverClient, ours: OurPath, step: (r: PhaseResult) => void): Promise<Record<string, unknown>> {
  // Only one of the two delivers at a time: our worker idles while the peer runs, and the other way round.
  await ours.stop();
  const peer = await startPeer(s);
  try {
    await peer.start();
    await warmUp(s, receiver, WARMUP_EVENTS, peer);
    step(await burst(s, receiver, peer, 'peer burst'));
    step(await drain(s, receiver, peer, 'peer drain'));
    return peer.settings();
  } finally {
    // Closed now, so its maintenance timer and pool do not run beside the phases that follow.
    await peer.close();
  }
}

/** One database's run of the webhooks bench: set up, warm up, every phase in order, the floor's parts, cleaned up. */
import { BACKEND_LABEL, type BackendKind } from './backend.js';
import { measureDurableWrite, measureSignature } from './webhooks-floor.js';
import { warmUp } from './webhooks-measure.js';
import { peerPhases } from './webhooks-peer.js';
import { bare, burst, drain, drainByProcesses, steady } from './webhooks-phases.js';
import type { ReceiverClient } from './webhooks-receiver.js';
import { fmt } from './webhooks-report.js';
import { EVENTS, phaseLabel, WARMUP_EVENTS, WORKER_PROCESSES } from './webhooks-settings.js';
import { OurPath, setUp } from './webhooks-setup.js';
import type { BackendRun, PhaseResult } from './webhooks-types.js';

export async function benchBackend(kind: BackendKind, receiver: ReceiverClient, postgresUrl: string | undefined): Promise<BackendRun> {
  console.error(`\n== database: ${BACKEND_LABEL[kind]} ==`);
  const s = await setUp(kind, receiver, postgresUrl);
  const ours = new OurPath(s);
  let peerSettings: Record<string, unknown> | undefined;
  try {
    await ours.start();
    await warmUp(s, receiver, WARMUP_EVENTS, ours);
    await bare(s, receiver, WARMUP_EVENTS, false);

    const results: PhaseResult[] = [];
    const step = (r: PhaseResult) => {
      console.error(`  ${phaseLabel(r.phase)}: ${fmt(r.perSec)}/s${r.latencyP99Ms !== undefined ? `, p50 ${r.latencyP50Ms} ms, p99 ${r.latencyP99Ms} ms` : ''}`);
      results.push(r);
    };
    step(await burst(s, receiver, ours, 'burst'));
    step(await drain(s, receiver, ours, 'drain'));
    if (s.databaseUrl) {
      peerSettings = await peerPhases(s, receiver, ours, step);
      await ours.start();
    }
    step((await bare(s, receiver, EVENTS))!);
    const floor = { ...measureSignature(), ...(await measureDurableWrite(s, receiver)) };
    step(await steady(s, receiver, ours));
    if (s.databaseUrl && WORKER_PROCESSES > 0) {
      await ours.stop();
      step(await drainByProcesses(s, receiver, ours));
    }
    if (s.log.warnings + s.log.errors > 0) console.error(`  worker logged ${s.log.warnings} warning(s), ${s.log.errors} error(s)`);
    return { backend: kind, results, floor, ...(peerSettings ? { peer: peerSettings } : {}) };
  } finally {
    await ours.stop();
    await s.close();
  }
}

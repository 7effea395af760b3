/** The shapes the webhooks bench passes between its parts: a database set up, a delivery path, a phase's figures. */
import type { WebhookConfig } from '../../src/config.js';
import type { SecretBox } from '../../src/crypto/secret-box.js';
import type { Database, Executor } from '../../src/db/database.js';
import type { RecordedEvent } from '../peers/pg-boss.js';
import type { BackendKind } from './backend.js';
import type { CpuFigures } from './cpu.js';
import type { Phase } from './webhooks-settings.js';

export interface Setup {
  kind: BackendKind;
  database: Database;
  databaseName?: string;
  /** PostgreSQL: the bench database, for worker processes. */
  databaseUrl?: string;
  secrets: SecretBox;
  /** The key behind `secrets` (worker processes open the subscription's signing key with it). */
  encryptionKeyHex: string;
  integratorId: string;
  config: WebhookConfig;
  log: CountingLog;
  close(): Promise<void>;
}

/**
 * Who queues and delivers the events: ours (recordEvent's outbox, startWebhookWorker) or the peer (pg-boss jobs
 * sent in the event's transaction, its own work() loops).
 */
export interface DeliveryPath {
  /** Queues the recorded event's deliveries in its transaction; absent for ours (recordEvent's outbox does it). */
  enqueue?(tx: Executor, event: RecordedEvent): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once every delivery made so far is recorded (ours: succeeded rows; the peer: completed jobs). */
  waitRecorded(timeoutMs: number): Promise<void>;
}


export interface CountingLog {
  warnings: number;
  errors: number;
  warn(obj: unknown, msg: string): void;
  error(obj: unknown, msg: string): void;
}

/** CPU-seconds over a measured window: this process, the receiver, PostgreSQL's backends, worker processes. */
export interface CpuSeconds {
  bench: number;
  receiver: number;
  postgres: number;
  group: number;
}

export interface PhaseResult {
  backend: BackendKind;
  phase: Phase;
  count: number;
  seconds: number;
  perSec: number;
  /** Events written per second (burst, steady). */
  writtenPerSec?: number;
  latencyP50Ms?: number;
  latencyP99Ms?: number;
  latencyMaxMs?: number;
  missing: number;
  duplicates: number;
  cpu: CpuFigures;
  /** Undefined where /proc is not there. */
  cpuSeconds?: CpuSeconds;
  /** All of cpuSeconds, in ms, per event of the phase (burst and steady include writing the events). */
  cpuMsPerDelivery?: number;
}

/** The floor's parts beyond bare's HTTP request, measured in the same run. */
export interface FloorParts {
  /** CPU of one Ed25519 signature (signWebhook) of a delivery-sized body in this process, ms. */
  signatureMs: number;
  signatures: number;
  bodyBytes: number;
  /** CPU of one minimal durable write, ms: (this process + PostgreSQL's backends) / single-row INSERTs committed. */
  writeMs?: number;
  writes: number;
  writeCpuSeconds?: CpuSeconds;
}


export interface BackendRun {
  backend: BackendKind;
  results: PhaseResult[];
  floor: FloorParts;
  /** The peer's settings, when it ran (PostgreSQL). */
  peer?: Record<string, unknown>;
}

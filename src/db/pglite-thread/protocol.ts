import type { EngineArtifacts } from './artifacts.js';

/**
 * The messages between the request thread and the thread that owns the embedded database (engine.ts), and how
 * what structured cloning loses crosses anyway: a driver error's fields (code, constraint, ...) and Buffers (they
 * arrive as plain Uint8Arrays).
 */

export type Request =
  | { id: number; op: 'query'; sql: string; params: unknown[]; rowMode: 'array' | 'object'; textTypes: number[]; txId?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; txId: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; listenId: number }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

export type Reply =
  | { id: number; ok: true; value?: unknown }
  | { id: number; ok: false; error: SerializedError }
  | { notify: number; payload: string };

export interface SerializedError {
  name: string;
  message: string;
  /** The driver's own fields: code (SQLSTATE), constraint, detail, table, column, severity, ... */
  fields: Record<string, unknown>;
}

export interface QueryResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

/** What the engine is started with (workerData). */
export interface EngineOptions {
  /** A folder holding the data (created and initialised by the caller), or undefined: in memory. */
  dir: string | undefined;
  /** An in-memory database starts from this dump (PGlite's dumpDataDir). */
  template?: ArrayBuffer;
  /** PGlite's compiled WebAssembly and file-system bundle, shared by the process's engines (artifacts.ts). */
  artifacts: EngineArtifacts;
}

export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function') continue;
    // Only what clones cleanly: the driver's fields are strings and numbers.
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { name: err.name, message: err.message, fields };
}

export function deserializeError(serialized: SerializedError): Error {
  const err = new Error(serialized.message);
  err.name = serialized.name;
  Object.assign(err, serialized.fields);
  return err;
}

/** Bytea values are Buffers on this side, as the in-process driver gave them (pglite-options.ts parses them so). */
export function reviveBuffers(rows: unknown[]): void {
  for (const row of rows) {
    if (Array.isArray(row)) {
      for (let i = 0; i < row.length; i++) if (row[i] instanceof Uint8Array) row[i] = asBuffer(row[i] as Uint8Array);
    } else if (row && typeof row === 'object') {
      const record = row as Record<string, unknown>;
      for (const key in record) if (record[key] instanceof Uint8Array) record[key] = asBuffer(record[key] as Uint8Array);
    }
  }
}

const asBuffer = (value: Uint8Array) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength));

import type { Worker, WorkerOptions } from 'node:worker_threads';
import { moduleWorker } from '../../threads/module-worker.js';
import { engineArtifacts } from './artifacts.js';
import { deserializeError, reviveBuffers, type EngineOptions, type QueryResult, type Reply, type Request } from './protocol.js';

/** A request without its id (the id is added by `call`); distributes over the union so each op keeps its fields. */
type Call = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

interface QueryOptions {
  rowMode?: 'array' | 'object';
  /** drizzle keeps dates and intervals as the text PostgreSQL sent; any parser given must do exactly that. */
  parsers?: Record<number, (text: string, typeId: number) => unknown>;
}

/** What drizzle's PGlite session calls, inside a transaction. */
export interface RemoteTransaction {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult>;
}

/** What every call on a closed engine fails with (the API answers it with a 503). */
export const closedError = () => new Error('PGlite is closed');

/**
 * The request thread's handle on the engine thread (engine.ts): the part of PGlite's interface that drizzle and
 * database.ts use (query, transaction, listen, dumpDataDir, close), each a message and its answer. The thread is
 * referenced only while an answer is awaited, so an idle database never keeps the process alive on its own.
 */
export class RemotePglite {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private failure: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => this.receive(reply));
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', () => this.fail(closedError()));
  }

  static async start(options: Omit<EngineOptions, 'artifacts'>): Promise<RemotePglite> {
    const workerData: EngineOptions = { ...options, artifacts: await engineArtifacts() };
    const init: WorkerOptions = { workerData, transferList: options.template ? [options.template] : [] };
    const worker = moduleWorker(import.meta.url, 'engine', init);
    const remote = new RemotePglite(worker);
    // The engine says it is ready with the answer to id 0.
    await new Promise((resolve, reject) => remote.pending.set(0, { resolve, reject }));
    worker.unref();
    return remote;
  }

  async query(sql: string, params: unknown[] = [], options: QueryOptions = {}, txId?: number): Promise<QueryResult> {
    const result = (await this.call({ op: 'query', sql, params, rowMode: options.rowMode ?? 'object', textTypes: textTypes(options.parsers), ...(txId === undefined ? {} : { txId }) })) as QueryResult;
    reviveBuffers(result.rows);
    return result;
  }

  /** Runs `fn` in one transaction of the engine: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    const txId = (await this.call({ op: 'begin' })) as number;
    let result: T;
    try {
      result = await fn({ query: (sql, params, options) => this.query(sql, params, options, txId) });
    } catch (err) {
      await this.call({ op: 'end', txId, commit: false }).catch(() => {});
      throw err;
    }
    await this.call({ op: 'end', txId, commit: true });
    return result;
  }

  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    const listenId = (await this.call({ op: 'listen', channel })) as number;
    this.listeners.set(listenId, onMessage);
    return async () => {
      this.listeners.delete(listenId);
      await this.call({ op: 'unlisten', listenId });
    };
  }

  async dumpDataDir(): Promise<Blob> {
    return new Blob([(await this.call({ op: 'dump' })) as ArrayBuffer]);
  }

  async close(): Promise<void> {
    if (this.failure) return;
    await this.call({ op: 'close' });
    this.fail(closedError());
    await this.worker.terminate();
  }

  private call(request: Call): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  private receive(reply: Reply): void {
    if ('notify' in reply) return void this.listeners.get(reply.notify)?.(reply.payload);
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(deserializeError(reply.error));
  }

  /** The engine is gone (closed, or its thread failed): everything waiting, and everything later, fails. */
  private fail(err: Error): void {
    this.failure ??= err;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }
}

function textTypes(parsers: QueryOptions['parsers']): number[] {
  if (!parsers) return [];
  return Object.entries(parsers).map(([oid, parse]) => {
    // The engine applies "keep the text" for these types; a parser doing anything else cannot cross threads.
    if (parse('2001-02-03 04:05:06+00', Number(oid)) !== '2001-02-03 04:05:06+00') throw new Error(`a parser for type ${oid} that does not keep the text cannot run on the engine thread`);
    return Number(oid);
  });
}

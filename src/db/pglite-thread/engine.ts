/**
 * The thread that owns the embedded database (PGlite, PostgreSQL compiled to WebAssembly). PGlite runs its
 * statements synchronously on the thread that calls it; here that is not the thread answering HTTP requests, so a
 * query's CPU no longer stalls every other request, and the second core can work on it (docs/architecture.md).
 * One engine, one connection: statements and transactions run one at a time, as they did in-process.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pgliteOptions } from '../pglite-options.js';
import { serializeError, type EngineOptions, type Reply, type Request } from './protocol.js';

const port = parentPort!;
const options = workerData as EngineOptions;

const pg = await PGlite.create({
  ...pgliteOptions(options.dir),
  pgliteWasmModule: options.artifacts.pgliteWasmModule,
  initdbWasmModule: options.artifacts.initdbWasmModule,
  fsBundle: asBlob(options.artifacts.fsBundle),
  ...(options.template ? { loadDataDir: asBlob(options.template) } : {}),
});

/**
 * What PGlite reads of a Blob (its bytes, its type) over bytes this thread already owns: a real Blob copied them in
 * and again out through a stream, about 0.4 s of CPU per test database for the 43 MB dump.
 */
function asBlob(bytes: ArrayBuffer): Blob {
  return { type: '', size: bytes.byteLength, arrayBuffer: () => Promise.resolve(bytes) } as unknown as Blob;
}

interface OpenTransaction {
  tx: Transaction;
  finish(commit: boolean): void;
  done: Promise<void>;
}
const transactions = new Map<number, OpenTransaction>();
const listeners = new Map<number, () => Promise<void>>();
let nextId = 1;

class RolledBack extends Error {}

/** Runs a PGlite transaction whose statements arrive as messages, until the request thread ends it. */
function begin(): Promise<number> {
  const txId = nextId++;
  return new Promise<number>((opened, failed) => {
    let finish!: (commit: boolean) => void;
    const done = pg
      .transaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            finish = (commit) => (commit ? resolve() : reject(new RolledBack()));
            transactions.set(txId, { tx, finish, done });
            opened(txId);
          }),
      )
      .catch((err: unknown) => {
        if (!(err instanceof RolledBack)) throw err;
      })
      .finally(() => transactions.delete(txId));
    // BEGIN itself failed: the transaction never opened.
    done.catch(failed);
  });
}

async function end(txId: number, commit: boolean): Promise<void> {
  const open = transactions.get(txId);
  if (!open) throw new Error(`transaction ${txId} is not open`);
  open.finish(commit);
  await open.done;
}

async function handle(request: Request): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const on = request.txId === undefined ? pg : transactions.get(request.txId)?.tx;
      if (!on) throw new Error(`transaction ${request.txId} is not open`);
      const parsers = Object.fromEntries(request.textTypes.map((oid) => [oid, (text: string) => text]));
      const result = await on.query(request.sql, request.params, { rowMode: request.rowMode, parsers });
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'begin':
      return begin();
    case 'end':
      return end(request.txId, request.commit);
    case 'listen': {
      const listenId = nextId++;
      listeners.set(listenId, await pg.listen(request.channel, (payload) => port.postMessage({ notify: listenId, payload } satisfies Reply)));
      return listenId;
    }
    case 'unlisten':
      await listeners.get(request.listenId)?.();
      listeners.delete(request.listenId);
      return undefined;
    case 'dump':
      return (await pg.dumpDataDir('none')).arrayBuffer();
    case 'close':
      await pg.close();
      return undefined;
  }
}

port.on('message', (request: Request) => {
  handle(request).then(
    (value) => {
      const transfer = value instanceof ArrayBuffer ? [value] : [];
      port.postMessage({ id: request.id, ok: true, value } satisfies Reply, transfer);
      if (request.op === 'close') port.close();
    },
    (err: unknown) => port.postMessage({ id: request.id, ok: false, error: serializeError(err) } satisfies Reply),
  );
});
port.postMessage({ id: 0, ok: true } satisfies Reply);

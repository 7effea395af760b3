import type { Worker } from 'node:worker_threads';
import type { Hex, TransactionSerializable } from 'viem';
import { moduleWorker } from '../../threads/module-worker.js';
import type { SignReply, SignRequest } from './protocol.js';

/**
 * Custody signatures on a thread of their own: a secp256k1 signature in JavaScript costs about 0.3 ms, which on the
 * request thread held up every other request (the transactions bench's largest item after socket writes). One
 * thread for the process, started on first use and not keeping the process alive; if it dies, the signatures
 * waiting on it fail and the next one starts a new thread.
 */
class SigningThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (signed: Hex) => void; reject: (err: Error) => void }>();

  sign(key: Uint8Array, transaction: TransactionSerializable): Promise<Hex> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    // Referenced while signatures are waiting, so a process with nothing else to do still gets its answer.
    if (this.pending.size === 0) worker.ref();
    return new Promise<Hex>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Structured cloning copies the key; the caller zeroes its own.
      worker.postMessage({ id, key, transaction } satisfies SignRequest);
    });
  }

  private start(): Worker {
    const worker = moduleWorker(import.meta.url, 'worker');
    worker.on('message', (reply: SignReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if ('signed' in reply) waiting.resolve(reply.signed);
      else waiting.reject(new Error(`signing failed: ${reply.error}`));
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the signing thread exited (${code})`)));
    // After the listeners: idle, it does not keep the process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

const thread = new SigningThread();

/** Signs `transaction` with the key (its 0x-prefixed hex text as UTF-8 bytes) on the signing thread. */
export function signOffThread(key: Uint8Array, transaction: TransactionSerializable): Promise<Hex> {
  return thread.sign(key, transaction);
}

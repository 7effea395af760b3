import { parentPort } from 'node:worker_threads';
import type { Hex } from 'viem';
import { signTransaction } from 'viem/accounts';
import type { SignReply, SignRequest } from './protocol.js';

/*
 * The signing thread: signs custody transactions with viem (secp256k1 in JavaScript, about 0.3 ms each), off the
 * request thread. The key arrives as a copy and is zeroed once the signature is made.
 */
const port = parentPort!;
port.on('message', (request: SignRequest) => {
  void sign(request).then((reply) => port.postMessage(reply));
});

async function sign({ id, key, transaction }: SignRequest): Promise<SignReply> {
  try {
    return { id, signed: await signTransaction({ privateKey: Buffer.from(key).toString('utf8') as Hex, transaction }) };
  } catch (err) {
    // The error's name only: a signing library's message may quote its input, and the input is the key.
    return { id, error: err instanceof Error ? err.name : 'a non-Error was thrown' };
  } finally {
    key.fill(0);
  }
}

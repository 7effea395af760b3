import type { TransactionSerializable } from 'viem';

/** A transaction to sign: the custody key as its 0x-prefixed hex text (UTF-8 bytes, zeroed once used). */
export interface SignRequest {
  id: number;
  key: Uint8Array;
  transaction: TransactionSerializable;
}

export type SignReply = { id: number; signed: `0x${string}` } | { id: number; error: string };

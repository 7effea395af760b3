import type { TransactionSerializable } from 'viem';
import type { transactions } from '../../db/schema/index.js';
import type { TokenRegistry } from '../tokens/token-registry.js';
import { tokenTransferColumn } from '../tokens/token-transfer.js';

/** Who a new transfer's row belongs to. */
export interface TransferOwner {
  id: string;
  integratorId: string;
  transactionId: string;
  accountId: string;
}

/**
 * The columns of a new transfer (an individual's, or a member's proposal) read from the unsigned transaction it
 * approves: the wallet that signs, the call's to, value and nonce, and a listed token's transfer decoded now
 * (docs/tokens.md#transfers), so its view never depends on TOKENS as it is later.
 */
export function newTransferFields(owner: TransferOwner, wallet: { id: string; address: string }, unsigned: TransactionSerializable, tokens: TokenRegistry) {
  return {
    ...owner,
    walletId: wallet.id,
    // A parsed unsigned transaction always names its chain (parseUnsignedTransaction refuses one without).
    chainId: unsigned.chainId!,
    fromAddress: wallet.address,
    toAddress: unsigned.to ?? null,
    value: (unsigned.value ?? 0n).toString(),
    nonce: unsigned.nonce ?? null,
    tokenTransfer: tokenTransferColumn(tokens, unsigned),
  } satisfies Partial<typeof transactions.$inferInsert>;
}

-- A transfer of a listed ERC-20 as decoded when it was submitted (docs/tokens.md#transfers); null for every other transaction.
ALTER TABLE "transactions" ADD COLUMN "token_transfer" jsonb;
-- Incoming transfers (docs/incoming.md): the watcher's cursor per chain, the block and log of each transfer seen, and
-- the indexes it reads through: the wallets of every account by address, the pending transfers per chain, and this
-- service's own transactions by hash (what it sent to an account is not reported again as incoming). The receipts'
-- index leaves incoming transfers out (they wait for confirmations, not receipts). IF NOT EXISTS: a large database
-- may build them beforehand, CONCURRENTLY (docs/deployment.md#upgrading-a-large-database).
CREATE TABLE "chain_scan_cursors" (
	"chain_id" bigint PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_kind_check";--> statement-breakpoint
DROP INDEX "transactions_processing_idx";--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "block_number" bigint;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "block_hash" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "log_index" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "incoming" jsonb;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "accounts_wallet_address_idx" ON "accounts" USING btree (lower("wallet_address")) WHERE "accounts"."wallet_address" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "transactions_incoming_key" ON "transactions" USING btree ("account_id","chain_id","transaction_hash","log_index") WHERE "transactions"."kind" = 'incoming' and "transactions"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "transactions_incoming_pending_idx" ON "transactions" USING btree ("chain_id","block_number") WHERE "transactions"."kind" = 'incoming' and "transactions"."status" = 'processing';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "transactions_hash_idx" ON "transactions" USING btree ("transaction_hash") WHERE "transactions"."transaction_hash" is not null;--> statement-breakpoint
CREATE INDEX "transactions_processing_idx" ON "transactions" USING btree ("updated_at") WHERE "transactions"."status" = 'processing' and "transactions"."kind" <> 'incoming';--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_kind_check" CHECK ("transactions"."kind" in ('transfer', 'deposit', 'withdrawal', 'refund', 'vault_deposit', 'vault_withdrawal', 'incoming'));
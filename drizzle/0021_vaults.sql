CREATE TABLE "vault_share_prices" (
	"vault_id" uuid NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"assets_per_share" text NOT NULL,
	"block_number" bigint NOT NULL,
	CONSTRAINT "vault_share_prices_vault_id_recorded_at_pk" PRIMARY KEY("vault_id","recorded_at")
);
--> statement-breakpoint
CREATE TABLE "vaults" (
	"id" uuid PRIMARY KEY NOT NULL,
	"chain_id" bigint NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_kind_check";--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "vault" jsonb;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "vault_share_prices_recorded_idx" ON "vault_share_prices" USING btree ("recorded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "vaults_chain_address_key" ON "vaults" USING btree ("chain_id","address");--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_kind_check" CHECK ("transactions"."kind" in ('transfer', 'deposit', 'withdrawal', 'refund', 'vault_deposit', 'vault_withdrawal'));--> statement-breakpoint
-- Withdrawals prepared before expires_at existed keep the expiry of their quote.
UPDATE "transactions" SET "expires_at" = ("withdrawal"->>'quoteExpiresAt')::timestamptz WHERE "kind" = 'withdrawal' AND "withdrawal" IS NOT NULL;

ALTER TABLE "transactions" ALTER COLUMN "wallet_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "payout_raw" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "payout_error" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "payout_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "transactions_payout_idx" ON "transactions" USING btree ("updated_at") WHERE "transactions"."status" = 'funds_in_transfer';
ALTER TABLE "ledger_entries" ALTER COLUMN "posted_after" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "pending_after" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "available_after" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "account_version" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "slot_of" uuid;--> statement-breakpoint
CREATE INDEX "ledger_accounts_slot_of_idx" ON "ledger_accounts" USING btree ("slot_of") WHERE "ledger_accounts"."slot_of" is not null;
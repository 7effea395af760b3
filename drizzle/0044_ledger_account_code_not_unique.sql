DROP INDEX "ledger_accounts_code_key";--> statement-breakpoint
CREATE INDEX "ledger_accounts_code_idx" ON "ledger_accounts" USING btree ("code");
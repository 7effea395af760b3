-- Deposits, withdrawals and refunds in a listed ERC-20 (docs/tokens.md#deposits-and-withdrawals): the token as it was
-- then, the base units moved, and a token deposit's quoted rate. All null for the native coin, as every row before.
ALTER TABLE "transactions" ADD COLUMN "token" jsonb;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "token_amount" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "deposit_rate" text;

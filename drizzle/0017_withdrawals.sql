CREATE TABLE "withdrawal_payouts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"transaction_row_id" uuid NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"rail" text NOT NULL,
	"amount" text NOT NULL,
	"currency" text NOT NULL,
	"account_holder_name" text NOT NULL,
	"last4" text NOT NULL,
	"status" text NOT NULL,
	"sent_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"returned_at" timestamp with time zone,
	"return_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawal_payouts_status_check" CHECK ("withdrawal_payouts"."status" in ('pending', 'sent', 'settled', 'returned'))
);
--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_kind_check";--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "withdrawal" jsonb;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "refund_of" uuid;--> statement-breakpoint
ALTER TABLE "withdrawal_payouts" ADD CONSTRAINT "withdrawal_payouts_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_payouts" ADD CONSTRAINT "withdrawal_payouts_transaction_row_id_transactions_id_fk" FOREIGN KEY ("transaction_row_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_payouts" ADD CONSTRAINT "withdrawal_payouts_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawal_payouts_transaction_key" ON "withdrawal_payouts" USING btree ("transaction_row_id");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawal_payouts_reference_key" ON "withdrawal_payouts" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "withdrawal_payouts_open_idx" ON "withdrawal_payouts" USING btree ("created_at") WHERE "withdrawal_payouts"."status" in ('pending', 'sent');--> statement-breakpoint
CREATE INDEX "transactions_created_idx" ON "transactions" USING btree ("created_at") WHERE "transactions"."status" = 'created';--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_refund_of_key" ON "transactions" USING btree ("refund_of");--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_kind_check" CHECK ("transactions"."kind" in ('transfer', 'deposit', 'withdrawal', 'refund'));
CREATE TABLE "ledger_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"asset" text NOT NULL,
	"integrator_id" uuid,
	"account_id" uuid,
	"posted_balance" numeric DEFAULT '0' NOT NULL,
	"pending_balance" numeric DEFAULT '0' NOT NULL,
	"available_balance" numeric DEFAULT '0' NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_assets" (
	"code" text PRIMARY KEY NOT NULL,
	"chain_id" bigint,
	"address" text,
	"symbol" text NOT NULL,
	"decimals" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_balance_versions" (
	"ledger_account_id" uuid NOT NULL,
	"version" bigint NOT NULL,
	"posted_balance" numeric NOT NULL,
	"pending_balance" numeric NOT NULL,
	"available_balance" numeric NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_balance_versions_ledger_account_id_version_pk" PRIMARY KEY("ledger_account_id","version")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"ledger_transaction_id" uuid NOT NULL,
	"ledger_account_id" uuid NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric NOT NULL,
	"status" text NOT NULL,
	"posted_after" numeric NOT NULL,
	"pending_after" numeric NOT NULL,
	"available_after" numeric NOT NULL,
	"account_version" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_status_check" CHECK ("ledger_entries"."status" in ('pending', 'posted', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "ledger_openings" (
	"chain_id" bigint PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"cause_key" text NOT NULL,
	"cause_type" text NOT NULL,
	"cause_id" uuid,
	"integrator_id" uuid,
	"description" text NOT NULL,
	"status" text NOT NULL,
	"chain_id" bigint,
	"block_number" bigint,
	"mined_in" bigint,
	"effective_at" timestamp with time zone NOT NULL,
	"posted_at" timestamp with time zone,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_transactions_status_check" CHECK ("ledger_transactions"."status" in ('pending', 'posted', 'archived'))
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_ledger_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_ledger_account_id_ledger_accounts_id_fk" FOREIGN KEY ("ledger_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_code_key" ON "ledger_accounts" USING btree ("code");--> statement-breakpoint
CREATE INDEX "ledger_accounts_account_idx" ON "ledger_accounts" USING btree ("account_id") WHERE "ledger_accounts"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_balance_versions_at_idx" ON "ledger_balance_versions" USING btree ("ledger_account_id","at");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("ledger_account_id","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" USING btree ("ledger_transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_cause_key" ON "ledger_transactions" USING btree ("cause_key");--> statement-breakpoint
CREATE INDEX "ledger_transactions_cause_idx" ON "ledger_transactions" USING btree ("cause_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_chain_mined_idx" ON "ledger_transactions" USING btree ("chain_id","mined_in") WHERE "ledger_transactions"."mined_in" is not null;--> statement-breakpoint
CREATE INDEX "ledger_transactions_pending_idx" ON "ledger_transactions" USING btree ("chain_id") WHERE "ledger_transactions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "ledger_transactions_unfinal_idx" ON "ledger_transactions" USING btree ("chain_id","block_number") WHERE "ledger_transactions"."status" = 'pending' and "ledger_transactions"."block_number" is not null;
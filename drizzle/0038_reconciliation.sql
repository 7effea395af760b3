CREATE TABLE "operator_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliation_breaks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"chain_id" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"ledger_account_code" text NOT NULL,
	"asset" text NOT NULL,
	"symbol" text NOT NULL,
	"decimals" integer NOT NULL,
	"integrator_id" uuid,
	"account_id" uuid,
	"address" text NOT NULL,
	"ledger_amount" numeric NOT NULL,
	"chain_amount" numeric NOT NULL,
	"difference" numeric NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"adjustment_ledger_transaction_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliation_exceptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"type" text NOT NULL,
	"line" jsonb,
	"expected_kind" text,
	"expected_id" uuid,
	"expected_reference" text,
	"expected_amount" text,
	"detail" text NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliation_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"trigger" text NOT NULL,
	"operator_id" text,
	"statement_hash" text,
	"statement" jsonb,
	"summary" jsonb NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reconciliation_runs_kind_check" CHECK ("reconciliation_runs"."kind" in ('chain', 'bank'))
);
--> statement-breakpoint
CREATE TABLE "statement_matches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"line_id" text NOT NULL,
	"line" jsonb NOT NULL,
	"expected_kind" text NOT NULL,
	"expected_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"matched_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reconciliation_breaks" ADD CONSTRAINT "reconciliation_breaks_run_id_reconciliation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."reconciliation_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_exceptions" ADD CONSTRAINT "reconciliation_exceptions_run_id_reconciliation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."reconciliation_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_matches" ADD CONSTRAINT "statement_matches_run_id_reconciliation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."reconciliation_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_events_type_idx" ON "operator_events" USING btree ("type","id");--> statement-breakpoint
CREATE INDEX "reconciliation_breaks_run_idx" ON "reconciliation_breaks" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "reconciliation_breaks_open_idx" ON "reconciliation_breaks" USING btree ("created_at") WHERE "reconciliation_breaks"."status" = 'open';--> statement-breakpoint
CREATE INDEX "reconciliation_exceptions_run_idx" ON "reconciliation_exceptions" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "reconciliation_exceptions_open_idx" ON "reconciliation_exceptions" USING btree ("created_at") WHERE "reconciliation_exceptions"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_runs_statement_key" ON "reconciliation_runs" USING btree ("statement_hash") WHERE "reconciliation_runs"."statement_hash" is not null;--> statement-breakpoint
CREATE INDEX "reconciliation_runs_kind_idx" ON "reconciliation_runs" USING btree ("kind","id");--> statement-breakpoint
CREATE UNIQUE INDEX "statement_matches_expected_key" ON "statement_matches" USING btree ("expected_kind","expected_id");--> statement-breakpoint
CREATE INDEX "statement_matches_run_idx" ON "statement_matches" USING btree ("run_id");
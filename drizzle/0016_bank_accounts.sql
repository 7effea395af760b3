CREATE TABLE "bank_account_transitions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"rail" text NOT NULL,
	"account_holder_name" text NOT NULL,
	"bank_name" text,
	"routing_number" text,
	"account_type" text,
	"iban_country" text,
	"bic" text,
	"number_sealed" text NOT NULL,
	"number_fingerprint" text NOT NULL,
	"last4" text NOT NULL,
	"address" jsonb,
	"status" text NOT NULL,
	"name_matched" text NOT NULL,
	"rejection_reason" text,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_accounts_status_check" CHECK ("bank_accounts"."status" in ('verified', 'pending_review', 'rejected', 'removed')),
	CONSTRAINT "bank_accounts_rail_check" CHECK (("bank_accounts"."rail" = 'ach' and "bank_accounts"."currency" = 'USD') or ("bank_accounts"."rail" = 'sepa' and "bank_accounts"."currency" = 'EUR'))
);
--> statement-breakpoint
ALTER TABLE "bank_account_transitions" ADD CONSTRAINT "bank_account_transitions_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_account_transitions" ADD CONSTRAINT "bank_account_transitions_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_account_transitions_bank_account_idx" ON "bank_account_transitions" USING btree ("bank_account_id","id");--> statement-breakpoint
CREATE INDEX "bank_accounts_account_idx" ON "bank_accounts" USING btree ("account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_live_number_key" ON "bank_accounts" USING btree ("account_id","number_fingerprint") WHERE "bank_accounts"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "bank_accounts_pending_idx" ON "bank_accounts" USING btree ("updated_at","id") WHERE "bank_accounts"."status" = 'pending_review';
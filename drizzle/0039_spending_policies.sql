CREATE TABLE "address_book_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"address" text NOT NULL,
	"label" text NOT NULL,
	"usable_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "address_book_entries_address_check" CHECK ("address_book_entries"."address" ~ '^0x[0-9a-f]{40}$')
);
--> statement-breakpoint
CREATE TABLE "policy_reservations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"chain_id" integer NOT NULL,
	"asset" text NOT NULL,
	"transaction_id" uuid NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"reserved_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	CONSTRAINT "policy_reservations_amount_check" CHECK ("policy_reservations"."amount" > 0),
	CONSTRAINT "policy_reservations_asset_check" CHECK ("policy_reservations"."asset" = 'native' or "policy_reservations"."asset" ~ '^0x[0-9a-f]{40}$')
);
--> statement-breakpoint
CREATE TABLE "spending_policies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"account_id" uuid,
	"rules" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "spending_policy_changes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"action" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spending_policy_changes_action_check" CHECK ("spending_policy_changes"."action" in ('created', 'deleted'))
);
--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD CONSTRAINT "address_book_entries_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD CONSTRAINT "address_book_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_reservations" ADD CONSTRAINT "policy_reservations_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_reservations" ADD CONSTRAINT "policy_reservations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_policies" ADD CONSTRAINT "spending_policies_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_policies" ADD CONSTRAINT "spending_policies_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_policy_changes" ADD CONSTRAINT "spending_policy_changes_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_policy_changes" ADD CONSTRAINT "spending_policy_changes_policy_id_spending_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."spending_policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "address_book_entries_account_address_key" ON "address_book_entries" USING btree ("account_id","address");--> statement-breakpoint
CREATE INDEX "address_book_entries_account_idx" ON "address_book_entries" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "policy_reservations_window_idx" ON "policy_reservations" USING btree ("account_id","chain_id","asset","reserved_at") WHERE "policy_reservations"."released_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "policy_reservations_transaction_key" ON "policy_reservations" USING btree ("transaction_id","chain_id","asset");--> statement-breakpoint
CREATE INDEX "spending_policies_live_idx" ON "spending_policies" USING btree ("integrator_id","id") WHERE "spending_policies"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "spending_policies_account_idx" ON "spending_policies" USING btree ("integrator_id","account_id") WHERE "spending_policies"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "spending_policy_changes_policy_idx" ON "spending_policy_changes" USING btree ("policy_id","id");
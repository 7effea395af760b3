CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"wallet_id" uuid NOT NULL,
	"authenticator_id" uuid,
	"chain_id" bigint NOT NULL,
	"status" text NOT NULL,
	"request_hash" text NOT NULL,
	"signed_body" jsonb NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text,
	"value" text NOT NULL,
	"nonce" bigint,
	"transaction_hash" text,
	"broadcasted_at" timestamp with time zone,
	"receipt" jsonb,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transactions_status_check" CHECK ("transactions"."status" in ('created', 'waiting_for_funds', 'funds_in_transfer', 'processing', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "used_stamp_challenges" (
	"challenge" text PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"authenticator_id" uuid NOT NULL,
	"transaction_row_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_authenticator_id_authenticators_id_fk" FOREIGN KEY ("authenticator_id") REFERENCES "public"."authenticators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "used_stamp_challenges" ADD CONSTRAINT "used_stamp_challenges_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "used_stamp_challenges" ADD CONSTRAINT "used_stamp_challenges_authenticator_id_authenticators_id_fk" FOREIGN KEY ("authenticator_id") REFERENCES "public"."authenticators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "used_stamp_challenges" ADD CONSTRAINT "used_stamp_challenges_transaction_row_id_transactions_id_fk" FOREIGN KEY ("transaction_row_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_integrator_transaction_key" ON "transactions" USING btree ("integrator_id","transaction_id");--> statement-breakpoint
CREATE INDEX "transactions_account_idx" ON "transactions" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "transactions_processing_idx" ON "transactions" USING btree ("updated_at") WHERE "transactions"."status" = 'processing';
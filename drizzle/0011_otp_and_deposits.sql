CREATE TABLE "otp_approval_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"otp_code_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"transaction_row_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otp_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"destination" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "otp_codes_channel_check" CHECK ("otp_codes"."channel" in ('email'))
);
--> statement-breakpoint
CREATE TABLE "sandbox_otp_outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"destination" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transactions" ALTER COLUMN "signed_body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ALTER COLUMN "from_address" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "otp_activated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "kind" text DEFAULT 'transfer' NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "approval" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "deposit_amount" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "deposit_currency" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "received_amount" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "deposit_reference" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "fiat_deposit_instructions" jsonb;--> statement-breakpoint
ALTER TABLE "otp_approval_tokens" ADD CONSTRAINT "otp_approval_tokens_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_approval_tokens" ADD CONSTRAINT "otp_approval_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_approval_tokens" ADD CONSTRAINT "otp_approval_tokens_otp_code_id_otp_codes_id_fk" FOREIGN KEY ("otp_code_id") REFERENCES "public"."otp_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_approval_tokens" ADD CONSTRAINT "otp_approval_tokens_transaction_row_id_transactions_id_fk" FOREIGN KEY ("transaction_row_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_codes" ADD CONSTRAINT "otp_codes_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_codes" ADD CONSTRAINT "otp_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_otp_outbox" ADD CONSTRAINT "sandbox_otp_outbox_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_otp_outbox" ADD CONSTRAINT "sandbox_otp_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "otp_approval_tokens_hash_key" ON "otp_approval_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "otp_approval_tokens_user_idx" ON "otp_approval_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "otp_codes_user_idx" ON "otp_codes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_otp_outbox_user_idx" ON "sandbox_otp_outbox" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_deposit_reference_key" ON "transactions" USING btree ("deposit_reference");--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_kind_check" CHECK ("transactions"."kind" in ('transfer', 'deposit'));
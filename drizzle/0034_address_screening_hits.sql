-- Money to or from a wallet address on a sanctions list (docs/screening.md#wallet-addresses): refused outgoing
-- transfers, payouts and refunds, and incoming transfers from a listed sender, for operators to read.
CREATE TABLE "address_screening_hits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"chain_id" bigint NOT NULL,
	"activity" text NOT NULL,
	"transaction_row_id" uuid,
	"address" text NOT NULL,
	"list" text NOT NULL,
	"entry_number" text NOT NULL,
	"listed_name" text NOT NULL,
	"programs" jsonb NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "address_screening_hits" ADD CONSTRAINT "address_screening_hits_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "address_screening_hits_created_idx" ON "address_screening_hits" USING btree ("created_at","id");
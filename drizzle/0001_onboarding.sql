CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"type" text NOT NULL,
	"user_id" uuid,
	"entity_id" uuid,
	"wallet_address" text,
	"custody" text,
	"organization_id" uuid,
	"required_approvals" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_owner_check" CHECK (("accounts"."type" = 'individual' and "accounts"."user_id" is not null) or ("accounts"."type" = 'entity' and "accounts"."entity_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "authenticators" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"authenticator_name" text NOT NULL,
	"credential_id" text NOT NULL,
	"challenge" text NOT NULL,
	"client_data_json" text NOT NULL,
	"attestation_object" text NOT NULL,
	"transports" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"user_info" jsonb NOT NULL,
	"ssn_sealed" text,
	"ssn_last4" text,
	"ssn_fingerprint" text,
	"additional_user_info" jsonb,
	"partner_signed_agreement_id" text,
	"service_terms_signed_at" timestamp with time zone NOT NULL,
	"verification_status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_status_check" CHECK ("users"."verification_status" in ('not_started', 'init', 'under_review', 'awaiting_associated_person_information', 'awaiting_information', 'resubmission_requested', 'active', 'rejected', 'inactive'))
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"address" text NOT NULL,
	"private_key_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "associated_persons" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"entity_id" uuid NOT NULL,
	"user_info" jsonb NOT NULL,
	"ssn_sealed" text,
	"ssn_last4" text,
	"ssn_fingerprint" text,
	"beneficiary_details" jsonb NOT NULL,
	"verification_status" text NOT NULL,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "associated_persons_status_check" CHECK ("associated_persons"."verification_status" in ('not_started', 'init', 'under_review', 'awaiting_associated_person_information', 'awaiting_information', 'resubmission_requested', 'active', 'rejected', 'inactive'))
);
--> statement-breakpoint
CREATE TABLE "entities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"entity_info" jsonb NOT NULL,
	"service_terms_signed_at" timestamp with time zone NOT NULL,
	"verification_status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "entities_status_check" CHECK ("entities"."verification_status" in ('not_started', 'init', 'under_review', 'awaiting_associated_person_information', 'awaiting_information', 'resubmission_requested', 'active', 'rejected', 'inactive'))
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"owner_type" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"document_type" text NOT NULL,
	"issuing_country" text NOT NULL,
	"document_number" text,
	"description" text,
	"media_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"content_sealed" "bytea" NOT NULL,
	"warnings" jsonb,
	"errors" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authenticators" ADD CONSTRAINT "authenticators_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authenticators" ADD CONSTRAINT "authenticators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "associated_persons" ADD CONSTRAINT "associated_persons_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "associated_persons" ADD CONSTRAINT "associated_persons_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_integrator_idx" ON "accounts" USING btree ("integrator_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_user_key" ON "accounts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_entity_key" ON "accounts" USING btree ("entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "authenticators_credential_key" ON "authenticators" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "authenticators_user_idx" ON "authenticators" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "users_integrator_idx" ON "users" USING btree ("integrator_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "wallets_address_key" ON "wallets" USING btree ("address");--> statement-breakpoint
CREATE UNIQUE INDEX "wallets_account_key" ON "wallets" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "associated_persons_entity_idx" ON "associated_persons" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "associated_persons_integrator_idx" ON "associated_persons" USING btree ("integrator_id","id");--> statement-breakpoint
CREATE INDEX "entities_integrator_idx" ON "entities" USING btree ("integrator_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_owner_sha_key" ON "documents" USING btree ("owner_type","owner_id","sha256");--> statement-breakpoint
CREATE INDEX "documents_owner_idx" ON "documents" USING btree ("owner_type","owner_id","id");--> statement-breakpoint
CREATE INDEX "documents_integrator_sha_idx" ON "documents" USING btree ("integrator_id","sha256");
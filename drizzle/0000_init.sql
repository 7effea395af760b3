CREATE TABLE "credentials" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"public_key" text NOT NULL,
	"label" text NOT NULL,
	"scope" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credentials_scope_check" CHECK ("credentials"."scope" in ('read_write', 'read_only'))
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"type" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text NOT NULL,
	"sequence" integer NOT NULL,
	"api_version" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"integrator_id" uuid NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"response_content_type" text,
	"locked_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_integrator_id_key_pk" PRIMARY KEY("integrator_id","key")
);
--> statement-breakpoint
CREATE TABLE "integrators" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_nonces" (
	"public_key" text NOT NULL,
	"message_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "request_nonces_public_key_message_hash_pk" PRIMARY KEY("public_key","message_hash")
);
--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credentials_public_key_key" ON "credentials" USING btree ("public_key");--> statement-breakpoint
CREATE INDEX "credentials_integrator_idx" ON "credentials" USING btree ("integrator_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_object_sequence_key" ON "events" USING btree ("object_id","sequence");--> statement-breakpoint
CREATE INDEX "events_integrator_idx" ON "events" USING btree ("integrator_id","id");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "request_nonces_expires_idx" ON "request_nonces" USING btree ("expires_at");
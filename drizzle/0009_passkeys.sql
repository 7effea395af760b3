ALTER TABLE "authenticators" ADD COLUMN "public_key" text;--> statement-breakpoint
ALTER TABLE "authenticators" ADD COLUMN "public_key_algorithm" integer;--> statement-breakpoint
ALTER TABLE "authenticators" ADD COLUMN "rp_id_hash" text;--> statement-breakpoint
ALTER TABLE "authenticators" ADD COLUMN "sign_count" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "authenticators" ADD COLUMN "aaguid" text;--> statement-breakpoint
ALTER TABLE "authenticators" ADD COLUMN "attestation_format" text;
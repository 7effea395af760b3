ALTER TABLE "users" ADD COLUMN "terms_version" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "requirements" jsonb;--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "requirements" jsonb;
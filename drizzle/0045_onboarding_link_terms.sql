ALTER TABLE "onboarding_links" ADD COLUMN "terms_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "onboarding_links" ADD COLUMN "terms_version" text;
CREATE TABLE "onboarding_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"type" text NOT NULL,
	"user_id" uuid,
	"email" text,
	"email_key" text,
	"redirect_url" text,
	"token_hash" text NOT NULL,
	"status" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "onboarding_links_type_check" CHECK ("onboarding_links"."type" in ('individual', 'entity')),
	CONSTRAINT "onboarding_links_status_check" CHECK ("onboarding_links"."status" in ('pending', 'opened', 'completed', 'expired', 'revoked'))
);
--> statement-breakpoint
ALTER TABLE "onboarding_links" ADD CONSTRAINT "onboarding_links_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onboarding_links" ADD CONSTRAINT "onboarding_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "onboarding_links_token_hash_key" ON "onboarding_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "onboarding_links_live_user_idx" ON "onboarding_links" USING btree ("integrator_id","user_id") WHERE "onboarding_links"."status" in ('pending', 'opened');--> statement-breakpoint
CREATE INDEX "onboarding_links_live_email_idx" ON "onboarding_links" USING btree ("integrator_id","email_key") WHERE "onboarding_links"."status" in ('pending', 'opened');--> statement-breakpoint
CREATE INDEX "onboarding_links_live_expiry_idx" ON "onboarding_links" USING btree ("expires_at") WHERE "onboarding_links"."status" in ('pending', 'opened');
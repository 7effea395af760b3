-- The compliance back office (docs/back-office.md): structured screening hits with their dispositions, a case's
-- working state (assignee, proposal waiting for a second operator, opened on an active customer), its activity log,
-- operator roles, and findings that name their hit or the other record of a duplicate.
CREATE TABLE IF NOT EXISTS "case_activity" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"operator_id" uuid,
	"summary" text NOT NULL,
	"detail" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "review_cases" (
	"subject_id" uuid PRIMARY KEY NOT NULL,
	"subject_type" text NOT NULL,
	"integrator_id" uuid NOT NULL,
	"assignee_id" uuid,
	"assigned_at" timestamp with time zone,
	"open_reason" text,
	"opened_at" timestamp with time zone,
	"proposed_decision" text,
	"proposed_reasons" jsonb,
	"proposed_by" uuid,
	"proposed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "screening_hits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"match_key" text NOT NULL,
	"list" text NOT NULL,
	"entry_number" text NOT NULL,
	"score" double precision NOT NULL,
	"details" jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"disposition_note" text,
	"disposition_by" uuid,
	"disposition_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN IF NOT EXISTS "role" text DEFAULT 'reviewer' NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_findings" ADD COLUMN IF NOT EXISTS "hit_id" uuid;--> statement-breakpoint
ALTER TABLE "verification_findings" ADD COLUMN IF NOT EXISTS "related" jsonb;--> statement-breakpoint
ALTER TABLE "case_activity" ADD CONSTRAINT "case_activity_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_cases" ADD CONSTRAINT "review_cases_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_hits" ADD CONSTRAINT "screening_hits_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "case_activity_subject_idx" ON "case_activity" USING btree ("subject_id","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "review_cases_open_idx" ON "review_cases" USING btree ("opened_at");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "screening_hits_match_key" ON "screening_hits" USING btree ("subject_id","match_key");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "screening_hits_open_idx" ON "screening_hits" USING btree ("subject_id","status");
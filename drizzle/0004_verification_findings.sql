CREATE TABLE "verification_findings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integrator_id" uuid NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"document_id" uuid,
	"severity" text NOT NULL,
	"code" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verification_findings" ADD CONSTRAINT "verification_findings_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_findings_subject_idx" ON "verification_findings" USING btree ("subject_type","subject_id");
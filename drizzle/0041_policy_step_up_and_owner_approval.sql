ALTER TABLE "transactions" ADD COLUMN "required_approvals" integer;--> statement-breakpoint
ALTER TABLE "spending_policy_changes" ADD COLUMN "acting_user_id" uuid;
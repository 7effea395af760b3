CREATE INDEX "users_status_idx" ON "users" USING btree ("verification_status","updated_at","id");--> statement-breakpoint
CREATE INDEX "associated_persons_status_idx" ON "associated_persons" USING btree ("verification_status","updated_at","id");--> statement-breakpoint
CREATE INDEX "entities_status_idx" ON "entities" USING btree ("verification_status","updated_at","id");
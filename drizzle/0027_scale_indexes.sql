DROP INDEX "events_integrator_idx";--> statement-breakpoint
CREATE INDEX "events_integrator_created_idx" ON "events" USING btree ("integrator_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_unsucceeded_idx" ON "webhook_deliveries" USING btree ("event_id") WHERE status <> 'succeeded';--> statement-breakpoint
CREATE INDEX "events_integrator_idx" ON "events" USING btree ("integrator_id","id","created_at");
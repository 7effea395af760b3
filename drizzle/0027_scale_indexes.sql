CREATE INDEX IF NOT EXISTS "events_integrator_created_idx" ON "events" USING btree ("integrator_id","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_deliveries_unsucceeded_idx" ON "webhook_deliveries" USING btree ("event_id") WHERE status <> 'succeeded';--> statement-breakpoint
-- events_integrator_idx gains created_at: built under another name, then swapped in. Built here, it holds up writes to
-- events while it builds; an operator of a large database builds it (and the two above) beforehand, CONCURRENTLY
-- (docs/deployment.md#upgrading-a-large-database), and then only the swap takes the table's lock, for a moment.
CREATE INDEX IF NOT EXISTS "events_integrator_idx_next" ON "events" USING btree ("integrator_id","id","created_at");--> statement-breakpoint
DROP INDEX "events_integrator_idx";--> statement-breakpoint
ALTER INDEX "events_integrator_idx_next" RENAME TO "events_integrator_idx";

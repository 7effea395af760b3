CREATE TABLE "event_sequences" (
	"object_id" text PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
-- Carry the numbers already given over to the counter.
INSERT INTO "event_sequences" ("object_id", "last") SELECT "object_id", max("sequence") FROM "events" GROUP BY "object_id";

-- UNLOGGED (written by hand: drizzle-kit has no such option): rate-limit counts are not worth WAL or a replica,
-- and a crash that empties the table only starts every credential on a fresh window.
CREATE UNLOGGED TABLE "rate_limit_windows" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_windows_key_window_start_window_end_pk" PRIMARY KEY("key","window_start","window_end")
);

DROP INDEX "authenticators_credential_key";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "response_sealed" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "credential_id" uuid;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "response_secret" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "http_headers_sealed" text;--> statement-breakpoint
CREATE UNIQUE INDEX "authenticators_integrator_credential_key" ON "authenticators" USING btree ("integrator_id","credential_id");--> statement-breakpoint
-- Responses stored before sealing that carry a secret (a generated private key, an OTP approval token) are
-- dropped rather than kept in clear; a retry of such a request runs again (docs/security.md).
DELETE FROM "idempotency_keys" WHERE "response_body" LIKE '%"privateKey"%' OR "response_body" LIKE '%"approvalToken"%';

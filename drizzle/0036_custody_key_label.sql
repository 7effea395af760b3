-- Custody keys on a PKCS#11 token (docs/key-management.md): a wallet's key is sealed here as before, or lives on the
-- token, where the row keeps only the object's label and the public key its signatures are recovered against.
ALTER TABLE "wallets" ALTER COLUMN "private_key_sealed" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN IF NOT EXISTS "key_label" text;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN IF NOT EXISTS "public_key" text;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_key_check" CHECK ("wallets"."private_key_sealed" is not null or ("wallets"."key_label" is not null and "wallets"."public_key" is not null));

-- One row per document as submitted (docs/onboarding.md#documents): the same bytes under another type, number,
-- country or description are another document of the owner; only the same submission again (a retry) is not. Every
-- existing row is unique under the new key, since the old one (bytes per owner) was stricter.
CREATE UNIQUE INDEX "documents_owner_submission_key" ON "documents" USING btree ("owner_type","owner_id","sha256","document_type","issuing_country",coalesce("document_number", ''),md5(coalesce("description", '')));--> statement-breakpoint
DROP INDEX "documents_owner_sha_key";

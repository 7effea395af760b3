CREATE TABLE "account_products" (
	"integrator_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"product_id" text NOT NULL,
	"status" text NOT NULL,
	"terms_accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_products_account_id_product_id_pk" PRIMARY KEY("account_id","product_id"),
	CONSTRAINT "account_products_status_check" CHECK ("account_products"."status" in ('enabled', 'disabled'))
);
--> statement-breakpoint
ALTER TABLE "account_products" ADD CONSTRAINT "account_products_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_products" ADD CONSTRAINT "account_products_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_products_integrator_idx" ON "account_products" USING btree ("integrator_id");
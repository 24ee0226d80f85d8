CREATE TABLE "auto_topups" (
	"user_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"threshold_micros" bigint NOT NULL,
	"amount_micros" bigint NOT NULL,
	"provider" text NOT NULL,
	"payment_method" text,
	"in_flight" text,
	"low_since" timestamp with time zone,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "models" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "ip_allowlist" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "tpm" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "max_concurrent" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "limit_reset" text;--> statement-breakpoint
ALTER TABLE "auto_topups" ADD CONSTRAINT "auto_topups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
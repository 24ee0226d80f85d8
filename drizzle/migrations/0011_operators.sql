CREATE TABLE "admin_audit" (
	"id" text PRIMARY KEY NOT NULL,
	"actor" text NOT NULL,
	"actor_email" text,
	"action" text NOT NULL,
	"target" text,
	"before" jsonb,
	"after" jsonb,
	"note" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "latency_daily" (
	"day" date NOT NULL,
	"model" text NOT NULL,
	"bucket" integer NOT NULL,
	"calls" bigint NOT NULL,
	CONSTRAINT "latency_daily_day_model_bucket_pk" PRIMARY KEY("day","model","bucket")
);
--> statement-breakpoint
CREATE TABLE "request_daily" (
	"day" date NOT NULL,
	"user_id" text NOT NULL,
	"model" text NOT NULL,
	"gateway" text NOT NULL,
	"calls" bigint NOT NULL,
	"errors" bigint NOT NULL,
	"cost_micros" bigint NOT NULL,
	"input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"cache_read_tokens" bigint NOT NULL,
	"cache_write_tokens" bigint NOT NULL,
	CONSTRAINT "request_daily_day_user_id_model_gateway_pk" PRIMARY KEY("day","user_id","model","gateway")
);
--> statement-breakpoint
CREATE TABLE "route_switches" (
	"model_id" text NOT NULL,
	"gateway_id" text NOT NULL,
	"upstream_model" text NOT NULL,
	"disabled_by" text NOT NULL,
	"disabled_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "route_switches_model_id_gateway_id_upstream_model_pk" PRIMARY KEY("model_id","gateway_id","upstream_model")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
CREATE INDEX "admin_audit_at_idx" ON "admin_audit" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "admin_audit_target_idx" ON "admin_audit" USING btree ("target","at");--> statement-breakpoint
CREATE INDEX "ledger_kind_completed_idx" ON "ledger_entries" USING btree ("kind","completed_at") WHERE "ledger_entries"."status" = 'completed';--> statement-breakpoint
CREATE INDEX "request_logs_created_idx" ON "request_logs" USING btree ("created_at");--> statement-breakpoint
-- A call's latency bucket for latency_daily: floor(4·log2(ms + 1)), so a bucket spans a factor
-- of 2^(1/4) ≈ 1.19 (src/admin/reports/latency.ts reads it back). Immutable: usable by the writer.
CREATE OR REPLACE FUNCTION latency_bucket(ms integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT floor(4 * log(2, greatest(ms, 0) + 1))::integer
$$;--> statement-breakpoint
-- The rollups start from what request_logs already holds.
INSERT INTO "request_daily" SELECT ("created_at" AT TIME ZONE 'UTC')::date, "user_id", "model", coalesce("gateway", ''),
  count(*), count(*) FILTER (WHERE "status" >= 500), sum("cost_micros"), sum("input_tokens"), sum("output_tokens"),
  sum("cache_read_tokens"), sum("cache_write_tokens")
  FROM "request_logs" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "latency_daily" SELECT ("created_at" AT TIME ZONE 'UTC')::date, "model", latency_bucket("latency_ms"), count(*)
  FROM "request_logs" GROUP BY 1, 2, 3;

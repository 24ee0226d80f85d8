-- request_logs becomes a table partitioned by month on created_at (docs/scaling.md).
-- Partitions are named request_logs_pYYYYMM (UTC months) and hold [month, next month);
-- request_logs_default catches any row no monthly partition covers, so an insert never fails.
-- The runtime keeps partitions ahead of time and drops expired ones through the two functions
-- below (src/db/request-log-partitions.ts), which are the only code that knows the layout.
ALTER TABLE "request_logs" RENAME TO "request_logs_unpartitioned";--> statement-breakpoint
ALTER TABLE "request_logs_unpartitioned" RENAME CONSTRAINT "request_logs_pkey" TO "request_logs_unpartitioned_pkey";--> statement-breakpoint
DROP INDEX "request_logs_user_created_idx";--> statement-breakpoint
DROP INDEX "request_logs_model_created_idx";--> statement-breakpoint
CREATE TABLE "request_logs" (
	"id" text NOT NULL,
	"user_id" text NOT NULL,
	"key_id" text NOT NULL,
	"model" text NOT NULL,
	"gateway" text,
	"protocol" text NOT NULL,
	"stream" boolean NOT NULL,
	"status" integer NOT NULL,
	"error_code" text,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"cache_read_tokens" integer DEFAULT 0 NOT NULL,
	"cache_write_tokens" integer DEFAULT 0 NOT NULL,
	"reasoning_tokens" integer DEFAULT 0 NOT NULL,
	"cost_micros" bigint DEFAULT 0 NOT NULL,
	"usage_source" text NOT NULL,
	"latency_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_logs_id_created_at_pk" PRIMARY KEY("id","created_at")
) PARTITION BY RANGE ("created_at");--> statement-breakpoint
CREATE INDEX "request_logs_user_created_idx" ON "request_logs" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "request_logs_user_key_created_idx" ON "request_logs" USING btree ("user_id","key_id","created_at","id");--> statement-breakpoint
CREATE INDEX "request_logs_user_model_created_idx" ON "request_logs" USING btree ("user_id","model","created_at","id");--> statement-breakpoint
CREATE INDEX "request_logs_model_created_idx" ON "request_logs" USING btree ("model","created_at");--> statement-breakpoint
CREATE TABLE "request_logs_default" PARTITION OF "request_logs" DEFAULT;--> statement-breakpoint
-- The month partition holding `at`, created if missing. Rows of that month already in the
-- default partition move into it in the same transaction (ATTACH would refuse otherwise).
-- Serialised by an advisory lock, so instances starting together do not race.
CREATE OR REPLACE FUNCTION request_logs_ensure_partition("at" timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  lo timestamptz := date_trunc('month', "at", 'UTC');
  hi timestamptz := date_trunc('month', "at", 'UTC') + interval '1 month';
  part text := 'request_logs_p' || to_char("at" AT TIME ZONE 'UTC', 'YYYYMM');
BEGIN
  IF to_regclass(part) IS NOT NULL THEN RETURN part; END IF;
  PERFORM pg_advisory_xact_lock(7205117004);
  -- Taking a table lock also reads the catalog changes committed meanwhile (an advisory lock
  -- does not), so the second check sees a partition another instance just created.
  LOCK TABLE request_logs_default IN ACCESS EXCLUSIVE MODE;
  IF to_regclass(part) IS NOT NULL THEN RETURN part; END IF;
  EXECUTE format('CREATE TABLE %I (LIKE request_logs INCLUDING DEFAULTS)', part);
  EXECUTE format('WITH moved AS (DELETE FROM request_logs_default WHERE created_at >= $1 AND created_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved', part) USING lo, hi;
  EXECUTE format('ALTER TABLE request_logs ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, lo, hi);
  RETURN part;
END $$;--> statement-breakpoint
-- Drops every month partition that ends at or before `cutoff` and deletes older rows from the
-- default partition; returns the dropped partitions' names. Ledger entries are never touched.
CREATE OR REPLACE FUNCTION request_logs_drop_before(cutoff timestamptz) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  part text;
BEGIN
  PERFORM pg_advisory_xact_lock(7205117004);
  FOR part IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'request_logs'::regclass AND c.relname ~ '^request_logs_p[0-9]{6}$'
      AND (to_date(substr(c.relname, 15), 'YYYYMM')::timestamp AT TIME ZONE 'UTC') + interval '1 month' <= cutoff
    ORDER BY c.relname
  LOOP
    EXECUTE format('ALTER TABLE request_logs DETACH PARTITION %I', part);
    EXECUTE format('DROP TABLE %I', part);
    RETURN NEXT part;
  END LOOP;
  DELETE FROM request_logs_default WHERE created_at < cutoff;
END $$;--> statement-breakpoint
-- Existing rows go straight into their month partitions (created first), then the old table goes.
SELECT request_logs_ensure_partition(m) FROM (
  SELECT DISTINCT date_trunc('month', "created_at", 'UTC') AS m FROM "request_logs_unpartitioned"
  UNION SELECT now() UNION SELECT now() + interval '1 month'
) months;--> statement-breakpoint
INSERT INTO "request_logs" SELECT * FROM "request_logs_unpartitioned";--> statement-breakpoint
DROP TABLE "request_logs_unpartitioned";

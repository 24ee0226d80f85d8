ALTER TABLE "request_logs" ADD COLUMN "fault" text;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "attempts" jsonb;--> statement-breakpoint
-- Calls logged before: their fault read from the error code they ended with (upstream failures and
-- Tollgate's own); an unknown model, a 402 or a 429 is the client's, whatever its status.
UPDATE "request_logs" SET "fault" = CASE
  WHEN "error_code" IN ('UPSTREAM_ERROR', 'UPSTREAM_TIMEOUT', 'UPSTREAM_UNAVAILABLE') THEN 'upstream'
  WHEN "error_code" IN ('SERVICE_UNAVAILABLE', 'INTERNAL', 'ABANDONED') THEN 'tollgate'
END WHERE "error_code" IS NOT NULL;

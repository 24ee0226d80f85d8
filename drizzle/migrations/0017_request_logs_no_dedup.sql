-- request_logs' three btrees without deduplication (docs/scaling.md "The writer's statement"): their keys
-- end with the id, so no two entries are equal and a deduplication pass over a full leaf page
-- merges nothing; it cost the ledger writer's statement 6–7 % of its instructions per call.
-- Rebuilds the three indexes (on a large table: a maintenance window; no row is rewritten).
DROP INDEX "request_logs_user_created_idx";--> statement-breakpoint
DROP INDEX "request_logs_user_key_created_idx";--> statement-breakpoint
DROP INDEX "request_logs_user_model_created_idx";--> statement-breakpoint
CREATE INDEX "request_logs_user_created_idx" ON "request_logs" USING btree ("user_id","created_at","id") WITH (deduplicate_items=false);--> statement-breakpoint
CREATE INDEX "request_logs_user_key_created_idx" ON "request_logs" USING btree ("user_id","key_id","created_at","id") WITH (deduplicate_items=false);--> statement-breakpoint
CREATE INDEX "request_logs_user_model_created_idx" ON "request_logs" USING btree ("user_id","model","created_at","id") WITH (deduplicate_items=false);
-- Usage enters the ledger per ledger-writer batch and account (docs/api.md "Ledger"): each
-- request log names the usage entry that billed it. Rows written before keep ledger_entry_id
-- null (their entry is the per-call one whose request_id is the row's id); nothing is rewritten.
-- Indexes: one per query and no more (docs/scaling.md "Indexes and the queries they serve").
-- request_logs_model_created_idx served no query since reports read the rollups; the time range
-- scans take a BRIN; the ledger's filter and report indexes leave usage entries out.
DROP INDEX "request_logs_model_created_idx";--> statement-breakpoint
DROP INDEX "request_logs_created_idx";--> statement-breakpoint
DROP INDEX "ledger_user_kind_created_idx";--> statement-breakpoint
DROP INDEX "ledger_user_status_created_idx";--> statement-breakpoint
DROP INDEX "ledger_kind_completed_idx";--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "ledger_entry_id" text;--> statement-breakpoint
CREATE INDEX "request_logs_created_brin" ON "request_logs" USING brin ("created_at") WITH (pages_per_range=32);--> statement-breakpoint
CREATE INDEX "ledger_user_kind_created_idx" ON "ledger_entries" USING btree ("user_id","kind","created_at","id") WHERE "ledger_entries"."kind" <> 'usage';--> statement-breakpoint
CREATE INDEX "ledger_user_status_created_idx" ON "ledger_entries" USING btree ("user_id","status","created_at","id") WHERE "ledger_entries"."status" <> 'completed';--> statement-breakpoint
CREATE INDEX "ledger_kind_completed_idx" ON "ledger_entries" USING btree ("kind","completed_at") WHERE "ledger_entries"."status" = 'completed' and "ledger_entries"."kind" <> 'usage';
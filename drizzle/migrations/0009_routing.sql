ALTER TABLE "request_logs" ADD COLUMN "models" text;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "query" jsonb;--> statement-breakpoint
ALTER TABLE "model_routes" ADD COLUMN "options" jsonb;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "fallbacks" jsonb;
CREATE TABLE "ledger_dead_letters" (
	"id" text PRIMARY KEY NOT NULL,
	"request_id" text,
	"raw" text NOT NULL,
	"error" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_dead_letters_request_id_unique" UNIQUE("request_id")
);
--> statement-breakpoint
CREATE INDEX "ledger_dead_letters_created_idx" ON "ledger_dead_letters" USING btree ("created_at");
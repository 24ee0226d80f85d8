-- A session carries the credential version it was made with; a password change moves the user's,
-- ending every earlier session whenever it committed (docs/console.md "Sessions"). A key keeps the
-- limits its operator set, which its owner may tighten but not lift (docs/console.md "API keys").
ALTER TABLE "users" ADD COLUMN "credential_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "operator_limits" jsonb;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "credential_version" integer DEFAULT 0 NOT NULL;
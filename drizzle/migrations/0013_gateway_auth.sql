-- A gateway's upstream auth as the catalog file writes it (docs/providers.md "Cloud auth"):
-- aws-sigv4, google-service-account or azure-entra, secrets as env:/file: references or literal.
ALTER TABLE "gateways" ADD COLUMN "auth" jsonb;

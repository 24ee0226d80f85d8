// A gateway's `auth` with its secrets resolved (docs/providers.md "Cloud auth"): what the catalog
// hands to createAuth. The catalog file's shape of it, with `env:` / `file:` references, is in
// src/catalog/file.ts.

export type AuthSpec =
  | {
      type: 'aws-sigv4'
      region: string
      /** Absent (with secretAccessKey): the standard credential chain. */
      accessKeyId?: string
      secretAccessKey?: string
      sessionToken?: string
    }
  | {
      type: 'google-service-account'
      /** The service account's JSON key file, as text. */
      credentials: string
      /** Absent: the key file's `token_uri`. */
      tokenUrl?: string
    }
  | {
      type: 'azure-entra'
      tenantId: string
      clientId: string
      clientSecret: string
      tokenUrl?: string
      scope?: string
    }

/** A spec that cannot work (a malformed key, half a key pair): one line naming what is wrong. */
export class AuthSpecError extends Error {}

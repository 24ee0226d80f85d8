// The key settings' wire members (docs/api.md "Key settings"), shared by the admin API and the
// console, at creation and in PATCH; null clears a setting. Values are checked further by
// auth/key-settings.ts (patterns against the catalog, CIDR blocks).
import { t } from 'elysia'
import { LIMIT_RESETS } from '../../billing/spend-period.ts'
import { Nullable, OneOf } from '../http/models.ts'

export const KeySettingsFields = {
  models: t.Optional(
    Nullable(
      t.Array(t.String({ maxLength: 200 }), {
        maxItems: 100,
        description: 'Public model slugs this key may call, `*` globs allowed ("acme/*"); null = every model',
      }),
    ),
  ),
  ipAllowlist: t.Optional(
    Nullable(
      t.Array(t.String({ maxLength: 64 }), { maxItems: 100, description: 'CIDR blocks (IPv4, IPv6) of allowed clients; null = any' }),
    ),
  ),
  tpm: t.Optional(Nullable(t.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'Tokens per minute; null = none' }))),
  maxConcurrent: t.Optional(Nullable(t.Integer({ minimum: 1, maximum: 100_000, description: 'Calls in flight at once; null = none' }))),
  limitReset: t.Optional(
    Nullable(
      OneOf('limitReset', LIMIT_RESETS, { description: 'The limit counts spend from the start of this UTC period; null = lifetime' }),
    ),
  ),
}

/** The settings as every key listing shows them, with the spend of the current period. */
export const KeySettingsView = {
  models: Nullable(t.Array(t.String())),
  ipAllowlist: Nullable(t.Array(t.String())),
  tpm: Nullable(t.Integer()),
  maxConcurrent: Nullable(t.Integer()),
  limitReset: Nullable(t.String()),
  resetsAt: Nullable(t.String({ format: 'date-time', description: 'When the period of limitReset ends; null without one' })),
  operatorLimits: Nullable(
    t.Object(
      {
        limit: t.Optional(t.Number()),
        limitReset: t.Optional(Nullable(t.String())),
        rpm: t.Optional(t.Integer()),
        tpm: t.Optional(t.Integer()),
        maxConcurrent: t.Optional(t.Integer()),
        expiresAt: t.Optional(t.String({ format: 'date-time' })),
        models: t.Optional(t.Array(t.String())),
        ipAllowlist: t.Optional(t.Array(t.String())),
      },
      {
        description: 'The limits the operator set, at their values: the owner may tighten them, not lift or loosen them (403); null = none',
      },
    ),
  ),
}

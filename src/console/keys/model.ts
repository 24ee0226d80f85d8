// API key models. The secret appears in CreatedKey only: once, at creation.
import { t } from 'elysia'
import { Nullable, OneOf, PageQuery, pageOf } from '../http/models.ts'
import { KeySettingsFields, KeySettingsView } from './settings-model.ts'

export const SERVICE_MODES = ['performance'] as const

export const KeyView = t.Object({
  id: t.String(),
  name: t.String(),
  prefix: t.String({ description: 'The first characters of the secret, for recognising it' }),
  status: OneOf('status', ['active', 'revoked', 'expired']),
  limit: Nullable(t.Number({ description: 'Spend limit in USD (per period with limitReset); null = none' })),
  spent: t.Number({ description: 'USD spent through this key: in the current period with limitReset, else in its lifetime' }),
  remaining: Nullable(t.Number({ description: 'limit − spent; null without a limit' })),
  rpm: t.Integer({ description: 'Requests per minute allowed on /v1' }),
  serviceMode: t.String(),
  expiresAt: Nullable(t.String({ format: 'date-time' })),
  lastUsedAt: Nullable(t.String({ format: 'date-time' })),
  revokedAt: Nullable(t.String({ format: 'date-time' })),
  createdAt: t.String({ format: 'date-time' }),
  ...KeySettingsView,
})
export type KeyView = typeof KeyView.static

export const CreatedKey = t.Composite([KeyView, t.Object({ key: t.String({ description: 'The secret: shown this once, never again' }) })])

export const CreateKey = t.Object({
  name: t.Optional(t.String({ maxLength: 100 })),
  limit: t.Optional(Nullable(t.Number({ minimum: 0, maximum: 1_000_000, description: 'USD; null = no limit' }))),
  rpm: t.Optional(Nullable(t.Integer({ minimum: 1, description: 'At most the operator quota (DEFAULT_RPM); null = the quota' }))),
  expiresAt: t.Optional(Nullable(t.String({ format: 'date-time' }))),
  serviceMode: t.Optional(OneOf('serviceMode', SERVICE_MODES)),
  ...KeySettingsFields,
})
export type CreateKey = typeof CreateKey.static

/** PATCH: the creation members, each optional; absent = unchanged, null = cleared. */
export const UpdateKey = CreateKey
export type UpdateKey = CreateKey

export const KeysQuery = t.Object(PageQuery)
export const KeyList = pageOf(KeyView)

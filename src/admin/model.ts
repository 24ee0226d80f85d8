// The admin API's request models (README "Admin API").
import { t } from 'elysia'
import { SERVICE_MODES } from '../console/keys/model.ts'
import { KeySettingsFields } from '../console/keys/settings-model.ts'
import { OneOf } from '../console/http/models.ts'

export const NewUser = t.Object({
  email: t.String({ format: 'email', maxLength: 320 }),
  password: t.Optional(t.String({ minLength: 8, maxLength: 200 })),
})

export const CreditAdjustment = t.Object({ amount: t.Number(), note: t.Optional(t.String({ maxLength: 500 })) })

export const NewKey = t.Object({
  userId: t.String(),
  name: t.Optional(t.String({ maxLength: 100 })),
  limit: t.Optional(t.Union([t.Number({ minimum: 0 }), t.Null()])),
  rpm: t.Optional(t.Union([t.Integer({ minimum: 1, maximum: 1_000_000 }), t.Null()])),
  expiresAt: t.Optional(t.Union([t.String(), t.Null()])),
  serviceMode: t.Optional(OneOf('serviceMode', SERVICE_MODES)),
  ...KeySettingsFields,
})

/** PATCH /api/admin/keys/:id: NewKey's members but the owner; absent = unchanged, null = cleared. */
export const KeyPatch = t.Object({
  name: t.Optional(t.String({ maxLength: 100 })),
  limit: t.Optional(t.Union([t.Number({ minimum: 0 }), t.Null()])),
  rpm: t.Optional(t.Union([t.Integer({ minimum: 1, maximum: 1_000_000 }), t.Null()])),
  expiresAt: t.Optional(t.Union([t.String(), t.Null()])),
  serviceMode: t.Optional(OneOf('serviceMode', SERVICE_MODES)),
  ...KeySettingsFields,
})

/** Exactly one of transactionId (a top-up or usage entry) and requestId (one call of a usage entry). */
export const RefundRequest = t.Object({
  transactionId: t.Optional(t.String({ maxLength: 200 })),
  requestId: t.Optional(t.String({ maxLength: 200 })),
  amount: t.Optional(t.Number({ exclusiveMinimum: 0 })),
  note: t.Optional(t.String({ maxLength: 500 })),
})

export const UsersQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 500, error: 'limit must be an integer from 1 to 500.' })),
  cursor: t.Optional(t.String({ maxLength: 200 })),
  email: t.Optional(t.String({ maxLength: 320 })),
})

export const RoleChange = t.Object({ role: t.Union([t.Literal('admin'), t.Literal('user')]) })

export const AuditQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, error: 'limit must be an integer from 1 to 100.' })),
  cursor: t.Optional(t.String({ maxLength: 200 })),
  target: t.Optional(t.String({ maxLength: 200 })),
})

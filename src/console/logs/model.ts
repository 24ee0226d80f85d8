// Request logs: one per authenticated gateway call; id is the call's x-request-id.
import { t } from 'elysia'
import { Nullable, OneOf, PageQuery, pageOf } from '../http/models.ts'

export const RequestLog = t.Object({
  id: t.String({ description: 'The x-request-id of the call' }),
  keyId: t.String(),
  model: t.String(),
  gateway: Nullable(t.String({ description: 'The upstream gateway that served it (svc.gateway)' })),
  protocol: t.String(),
  stream: t.Boolean(),
  status: t.Integer({ description: 'HTTP status answered' }),
  errorCode: Nullable(t.String()),
  inputTokens: t.Integer(),
  outputTokens: t.Integer(),
  cacheReadTokens: t.Integer(),
  cacheWriteTokens: t.Integer(),
  reasoningTokens: t.Integer(),
  cost: t.Number({ description: 'USD' }),
  usageSource: t.String(),
  latencyMs: t.Integer(),
  models: Nullable(t.String({ description: 'The candidate models in order, comma-separated, when there were several' })),
  fault: Nullable(
    OneOf('fault', ['upstream', 'tollgate'] as const, {
      description: "Whose failure ended the call; null: none (completed, or the client's)",
    }),
  ),
  attempts: Nullable(
    t.Array(
      t.Object({
        gateway: t.String(),
        model: t.String({ description: 'The public model the route serves' }),
        outcome: t.String({ description: 'ok, or the error code the attempt failed with' }),
        status: t.Optional(t.Integer({ description: "The upstream's HTTP status, when it answered one" })),
        failure: t.Optional(t.String({ description: 'connect, timeout, first-token, status or body' })),
        ms: t.Integer(),
      }),
      { description: 'Each upstream attempt in order, with why it was left; null when the route logged answered at once' },
    ),
  ),
  transactionId: Nullable(t.String({ description: 'The usage ledger entry that billed the call; null when it cost nothing' })),
  createdAt: t.String({ format: 'date-time' }),
})
export type RequestLog = typeof RequestLog.static

export const LogsQuery = t.Object({
  ...PageQuery,
  keyId: t.Optional(t.String({ maxLength: 100 })),
  model: t.Optional(t.String({ maxLength: 200 })),
  status: t.Optional(OneOf('status', ['success', 'error'] as const, { description: 'success: answered below 400; error: 400 and above' })),
  transactionId: t.Optional(t.String({ maxLength: 200, description: 'The calls a usage ledger entry billed' })),
})
export type LogsQuery = typeof LogsQuery.static

export const LogList = pageOf(RequestLog)

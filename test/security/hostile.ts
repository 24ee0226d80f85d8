// Shared pieces of the hostile-input suites (docs/security.md "Input: one rule at every edge"): a
// gateway whose every refusal can be checked for its envelope, and the books that must not move
// while hostile input is refused.
import { sql } from 'drizzle-orm'
import { expect } from 'bun:test'
import type { TestGateway } from '../helpers/gateway.ts'

export type Surface = 'console' | 'chat' | 'messages' | 'responses' | 'webhook'

/** The surface a path answers in (docs/api.md "Error envelopes": each protocol its own). */
export function surfaceOf(path: string): Surface {
  if (path.startsWith('/v1/chat/') || path.startsWith('/v1/models')) return 'chat'
  if (path.startsWith('/v1/messages')) return 'messages'
  if (path.startsWith('/v1/responses')) return 'responses'
  return 'console'
}

/** A refusal: 4xx, x-request-id, and the surface's own error envelope. Returns the body. */
export async function expectRefusal(res: Response, path: string, label = path): Promise<any> {
  const text = await res.text()
  const where = `${label} → ${res.status} ${text.slice(0, 300)}`
  expect(res.status >= 400 && res.status < 500, where).toBe(true)
  expect(res.headers.get('x-request-id'), where).toMatch(/^[a-z]+_[A-Za-z0-9]+$/)
  const body = JSON.parse(text)
  const s = surfaceOf(path)
  if (s === 'console') expect([typeof body.error?.code, typeof body.error?.message], where).toEqual(['string', 'string'])
  if (s === 'chat') expect([body.status, typeof body.error?.code, typeof body.error?.message], where).toEqual(['error', 'string', 'string'])
  if (s === 'messages')
    expect([body.type, typeof body.error?.type, typeof body.error?.message], where).toEqual(['error', 'string', 'string'])
  if (s === 'responses') expect([typeof body.error?.type, typeof body.error?.message], where).toEqual(['string', 'string'])
  return body
}

/** Everything money and identity: must be identical before and after refused input. */
export async function snapshot(gw: TestGateway): Promise<Record<string, string>> {
  const { db } = gw.runtime.deps
  const one = async (q: ReturnType<typeof sql>) => {
    const res = (await db.execute(q)) as any
    return String((Array.isArray(res) ? res : res.rows)[0].v)
  }
  return {
    users: await one(sql`select count(*)::text as v from users`),
    keys: await one(sql`select count(*)::text || ':' || count(revoked_at)::text as v from api_keys`),
    ledger: await one(sql`select count(*)::text || ':' || coalesce(sum(amount_micros), 0)::text as v from ledger_entries`),
    balances: await one(sql`select coalesce(sum(balance_micros), 0)::text as v from accounts`),
    events: await one(sql`select count(*)::text as v from payment_events`),
  }
}

// Starting a console session (docs/console.md "Sessions"): a new session row and its cookie,
// replacing the browser's previous session rather than leaving it alive; Secure when the client
// came over TLS or PUBLIC_URL is https.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { createUser } from '../../../src/billing/accounts.ts'
import { isHttpsUrl, startSession } from '../../../src/console/auth/sign-in.ts'
import { sessionUser } from '../../../src/console/auth/sessions.ts'
import { memoryDb, type MemoryDb } from '../../helpers/memory-db.ts'

const NOW = Date.UTC(2026, 10, 27, 12)

test('isHttpsUrl: only an https: URL', () => {
  expect([isHttpsUrl('https://a.example'), isHttpsUrl('http://a.example'), isHttpsUrl(undefined), isHttpsUrl('')]).toEqual([
    true,
    false,
    false,
    false,
  ])
})

describe('startSession on embedded Postgres', () => {
  let m: MemoryDb
  let user: { id: string; email: string }
  const appWith = (publicUrl: string | undefined) => {
    const deps = { db: m.db, now: () => NOW, config: { sessionTtlSeconds: 3600, publicUrl } as any }
    return new Elysia().post('/in', ({ cookie, query }) =>
      startSession(deps, { ...user, role: 'user', verified: true }, cookie, query.tls === '1'),
    )
  }
  const signIn = (app: ReturnType<typeof appWith>, cookie?: string, tls = false) =>
    app.handle(new Request(`http://console.test/in${tls ? '?tls=1' : ''}`, { method: 'POST', headers: cookie ? { cookie } : {} }))
  const tokenOf = (res: Response) => res.headers.get('set-cookie')!.split(';')[0]!.slice('svc_session='.length)

  beforeAll(async () => {
    m = await memoryDb()
    user = await createUser(m.db, 'signin@test.local', null)
  }, 30_000)
  afterAll(() => m.close())

  test('answers the user and sets a cookie whose token opens a session of the configured lifetime', async () => {
    const res = await signIn(appWith(undefined))
    expect(await res.json()).toEqual({ id: user.id, email: user.email, role: 'user', verified: true })
    expect(res.headers.get('set-cookie')).toContain('Max-Age=3600')
    expect(res.headers.get('set-cookie')).not.toContain('Secure')
    const token = tokenOf(res)
    expect((await sessionUser(m.db, token, NOW + 3_599_000))?.id).toBe(user.id)
    expect(await sessionUser(m.db, token, NOW + 3_600_000)).toBeUndefined()
  })

  test("the browser's previous session ends when a new one starts", async () => {
    const app = appWith(undefined)
    const first = tokenOf(await signIn(app))
    const second = tokenOf(await signIn(app, `svc_session=${first}`))
    expect(second).not.toBe(first)
    expect(await sessionUser(m.db, first, NOW)).toBeUndefined()
    expect((await sessionUser(m.db, second, NOW))?.id).toBe(user.id)
  })

  test('Secure over TLS, or when PUBLIC_URL is https', async () => {
    expect((await signIn(appWith(undefined), undefined, true)).headers.get('set-cookie')).toContain('Secure')
    expect((await signIn(appWith('https://gw.example'))).headers.get('set-cookie')).toContain('Secure')
  })
})

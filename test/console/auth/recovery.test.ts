// POST /api/auth/password/forgot, /password/reset, /verify (docs/console.md "Password reset"):
// the forgot answer is the same 202 for a known and an unknown email; a reset through the link
// sets the password and ends the user's sessions; a used or bad token is a 400; the forgot route
// has its own per-IP limit.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { RESET_LIMIT } from '../../../src/console/http/limits.ts'
import { simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { until } from '../../helpers/until.ts'
import { browser, CONSOLE_ENV, json, signUp } from '../helpers.ts'

describe('recovery routes on pglite+memory', () => {
  let gw: TestGateway
  const links: { to: string; link: string }[] = []
  beforeAll(async () => {
    const log = { debug() {}, info() {}, error() {}, warn: (_m: string, f?: any) => void (f?.link && links.push(f)) }
    gw = await startTestGateway(
      { db: 'pglite', store: 'memory' },
      simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]),
      { ...CONSOLE_ENV, PUBLIC_URL: 'http://console.example' },
      { log },
    )
  }, 60_000)
  afterAll(() => gw.stop())

  test('forgot: the same 202 for a known and an unknown email; only the known one gets a link', async () => {
    const u = await signUp(gw)
    const known = await browser(gw).post('/api/auth/password/forgot', { email: u.email })
    const unknown = await browser(gw).post('/api/auth/password/forgot', { email: 'nobody@test.local' })
    expect([known.status, unknown.status]).toEqual([202, 202])
    expect(await json(known)).toEqual(await json(unknown))
    await until(() => links.some((l) => l.to === u.email), 'the reset link')
    expect(links.filter((l) => l.to === 'nobody@test.local')).toEqual([])
    expect(links.filter((l) => l.to === u.email).at(-1)!.link).toStartWith('http://console.example/console/reset#token=')
  })

  test('reset: the new password works, the old sessions end, the link works once', async () => {
    const u = await signUp(gw)
    await browser(gw).post('/api/auth/password/forgot', { email: u.email })
    // The 202 comes before the work (docs/console.md "Password reset"): the link follows it.
    await until(() => links.some((l) => l.to === u.email), 'the reset link')
    const token = new URL(links.filter((l) => l.to === u.email).at(-1)!.link).hash.replace('#token=', '')
    const b = browser(gw)
    expect((await b.post('/api/auth/password/reset', { token, password: 'a new password!' })).status).toBe(200)
    expect((await u.get('/api/auth/me')).status).toBe(401)
    expect((await b.post('/api/auth/login', { email: u.email, password: 'a new password!' })).status).toBe(200)
    const again = await b.post('/api/auth/password/reset', { token, password: 'yet another one' })
    expect(again.status).toBe(400)
    expect((await b.post('/api/auth/verify', { token: 'not-a-token' })).status).toBe(400)
  })

  test('forgot has its own per-IP limit', async () => {
    const b = browser(gw)
    const statuses: number[] = []
    for (let i = 0; i <= RESET_LIMIT.limit; i++)
      statuses.push((await b.post('/api/auth/password/forgot', { email: 'x@test.local' })).status)
    expect(statuses.slice(0, RESET_LIMIT.limit).every((s) => s === 202)).toBe(true)
    expect(statuses.at(-1)).toBe(429)
  })
})

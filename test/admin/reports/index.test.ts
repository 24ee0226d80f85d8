// GET /api/admin/reports/summary and /daily (docs/operators.md "Reports"): both need the admin
// token and a period of UTC dates; a missing or bad period is refused with the member it names.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` }

describe('admin report routes on pglite+memory', () => {
  let gw: TestGateway
  const get = async (path: string, headers: Record<string, string> = auth) => {
    const res = await gw.request(path, { headers })
    return { status: res.status, body: (await res.json()) as any }
  }
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]))
  }, 60_000)
  afterAll(() => gw.stop())

  test('daily: one row per day of the period', async () => {
    const { status, body } = await get('/api/admin/reports/daily?from=2026-02-27&to=2026-03-02')
    expect(status).toBe(200)
    expect(body.items.map((i: any) => i.day)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01'])
  })

  test('summary: answers the period it was asked', async () => {
    const { status, body } = await get('/api/admin/reports/summary?from=2026-03-01&to=2026-04-01')
    expect(status).toBe(200)
    expect(body).toMatchObject({ from: '2026-03-01', to: '2026-04-01' })
  })

  test('a missing, impossible or reversed period is refused; no token is 401', async () => {
    for (const q of ['', '?from=2026-03-01', '?from=2026-02-30&to=2026-03-02', '?from=2026-03-02&to=2026-03-01', '?from=x&to=y']) {
      const { status } = await get(`/api/admin/reports/daily${q}`)
      expect({ q, refused: status >= 400 && status < 500 }).toEqual({ q, refused: true })
    }
    expect((await get('/api/admin/reports/daily?from=2026-03-02&to=2026-03-01')).body.error.message).toContain('to:')
    expect((await get('/api/admin/reports/summary?from=2026-03-01&to=2026-04-01', {})).status).toBe(401)
  })
})

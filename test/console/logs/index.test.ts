// GET /api/logs and /api/logs/:id (docs/console.md "Request logs"): a session is required; the
// list answers the user's own calls in the documented shape with its filters; a bad filter is a
// 400 that says what is allowed; another user's log is a 404.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { requestLogs } from '../../../src/db/schema/index.ts'
import { simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'
import { browser, CONSOLE_ENV, json, signUp, type SignedIn } from '../helpers.ts'

describe('request log routes on pglite+memory', () => {
  let gw: TestGateway
  let me: SignedIn
  let other: SignedIn
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]), CONSOLE_ENV)
    me = await signUp(gw)
    other = await signUp(gw)
    const log = (id: string, userId: string, status: number) => ({
      id,
      userId,
      keyId: 'key_1',
      model: 'acme/chat-1',
      gateway: 'gw-a',
      protocol: 'chat',
      stream: true,
      status,
      usageSource: 'upstream',
      latencyMs: 5,
      costMicros: 2_000_000n,
    })
    await gw.runtime.deps.db
      .insert(requestLogs)
      .values([log('req_mine_ok', me.id, 200), log('req_mine_err', me.id, 502), log('req_theirs', other.id, 200)])
  }, 60_000)
  afterAll(() => gw.stop())

  test('without a session: 401 in the console envelope', async () => {
    const res = await browser(gw).get('/api/logs')
    expect(res.status).toBe(401)
    expect((await json(res)).error.code).toBe('UNAUTHORIZED')
  })

  test('the list: my calls only, `{ items, nextCursor }`, cost in USD; status filter', async () => {
    const page = await json(me.get('/api/logs'))
    expect(page.items.map((l: any) => l.id).sort()).toEqual(['req_mine_err', 'req_mine_ok'])
    expect(page.nextCursor).toBeNull()
    expect(page.items[0]).toMatchObject({ cost: 2, stream: true, model: 'acme/chat-1' })
    expect((await json(me.get('/api/logs?status=error'))).items.map((l: any) => l.id)).toEqual(['req_mine_err'])
  })

  test('a bad filter is a 400 naming the allowed values; an unknown or foreign id a 404', async () => {
    const bad = await me.get('/api/logs?status=failed')
    expect(bad.status).toBe(400)
    expect((await json(bad)).error.message).toContain('status must be one of: success, error.')
    expect((await me.get('/api/logs?limit=0')).status).toBe(400)
    expect((await me.get('/api/logs/req_theirs')).status).toBe(404)
    expect((await json(me.get('/api/logs/req_mine_ok'))).id).toBe('req_mine_ok')
    expect((await json(other.get('/api/logs/req_theirs'))).id).toBe('req_theirs')
  })
})

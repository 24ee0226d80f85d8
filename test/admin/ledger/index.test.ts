// GET /api/admin/ledger/health, the dead letters and their retry and discard (docs/operators.md
// "Ledger health"): the outbox backlog and writer lag; an unknown dead letter is a 404; a discard
// needs a note; the admin token is required.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'

const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }

describe('admin ledger routes on pglite+memory', () => {
  let gw: TestGateway
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = auth) => {
    const res = await gw.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: res.status, body: (await res.json()) as any }
  }
  beforeAll(async () => {
    gw = await startTestGateway({ db: 'pglite', store: 'memory' }, simpleCatalog([{ id: 'gw-a', url: 'http://127.0.0.1:9' }]))
  }, 60_000)
  afterAll(() => gw.stop())

  test('health: an idle gateway has no backlog, no lag and no dead letters', async () => {
    await gw.settled()
    const { status, body } = await call('GET', '/api/admin/ledger/health')
    expect(status).toBe(200)
    expect(body.outbox).toEqual({ backlog: 0, writerLagMs: 0 })
    expect(body.deadLetters).toBeDefined()
    expect((await call('GET', '/api/admin/ledger/dead-letters')).body).toEqual({ items: [], nextCursor: null })
  })

  test('an unknown dead letter is 404 for read, retry and discard; a discard needs a note', async () => {
    expect((await call('GET', '/api/admin/ledger/dead-letters/dl_nope')).status).toBe(404)
    expect((await call('POST', '/api/admin/ledger/dead-letters/dl_nope/retry')).status).toBe(404)
    expect((await call('POST', '/api/admin/ledger/dead-letters/dl_nope/discard', { note: 'gone' })).status).toBe(404)
    expect((await call('POST', '/api/admin/ledger/dead-letters/dl_nope/discard', {})).status).toBe(422)
    expect((await call('GET', '/api/admin/ledger/dead-letters?limit=101')).status).toBe(400)
  })

  test('no token is 401', async () => {
    expect((await call('GET', '/api/admin/ledger/health', undefined, {})).status).toBe(401)
  })
})

// GET /api/admin/gateways and POST /api/admin/routes/:action (docs/operators.md "Models and
// gateways"): switching a route off takes it out of routing at once and is audited with who did
// it; on again restores it; an unknown action or route is a 404 and changes nothing; unknown body
// members are refused.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, simpleCatalog, startTestGateway, type TestGateway } from '../../helpers/gateway.ts'

const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }
const ROUTE = { model: 'acme/chat-1', gateway: 'gw-a', upstreamModel: 'upstream-secret-model' }

describe('admin gateway routes on pglite+memory', () => {
  let gw: TestGateway
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await gw.request(path, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: res.status, body: (await res.json()) as any }
  }
  const routes = () => gw.runtime.deps.catalog.all()[0]!.routes.map((r) => r.gateway.id)
  beforeAll(async () => {
    gw = await startTestGateway(
      { db: 'pglite', store: 'memory' },
      simpleCatalog([
        { id: 'gw-a', url: 'http://127.0.0.1:9' },
        { id: 'gw-b', url: 'http://127.0.0.1:9' },
      ]),
    )
  }, 60_000)
  afterAll(() => gw.stop())

  test('the view lists every gateway', async () => {
    const { status, body } = await call('GET', '/api/admin/gateways')
    expect(status).toBe(200)
    expect(body.items.map((g: any) => g.id).sort()).toEqual(['gw-a', 'gw-b'])
  })

  test('disable: out of routing at once, audited with before and after; enable: back', async () => {
    const off = await call('POST', '/api/admin/routes/disable', ROUTE)
    expect(off).toEqual({ status: 200, body: { ...ROUTE, enabled: false } })
    expect(routes()).toEqual(['gw-b'])
    const audit = (await call('GET', `/api/admin/audit?target=${encodeURIComponent('acme/chat-1@gw-a/upstream-secret-model')}`)).body
    expect(audit.items[0]).toMatchObject({ actor: 'token', action: 'route.disable', before: { enabled: true }, after: { enabled: false } })
    expect((await call('POST', '/api/admin/routes/enable', ROUTE)).body.enabled).toBe(true)
    expect(routes()).toEqual(['gw-a', 'gw-b'])
  })

  test('an unknown action or route is 404; unknown members are refused; nothing changes', async () => {
    expect((await call('POST', '/api/admin/routes/toggle', ROUTE)).status).toBe(404)
    expect((await call('POST', '/api/admin/routes/disable', { ...ROUTE, gateway: 'gw-z' })).status).toBe(404)
    expect((await call('POST', '/api/admin/routes/disable', { ...ROUTE, extra: 1 })).status).toBe(422)
    expect((await call('POST', '/api/admin/routes/disable', { model: 'acme/chat-1' })).status).toBe(422)
    expect(routes()).toEqual(['gw-a', 'gw-b'])
  })
})

// Logs: every line one JSON object with time, level and message; every line about a call carries
// its request id (= x-request-id = the request-log row); upstream detail is there (gateway,
// status, cause — an Error as name and message, not "{}"), secrets are not (the client's key,
// the gateway's API key).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createLogger } from '../../src/lib/log.ts'
import { simpleCatalog, startTestGateway, type TestGateway } from '../helpers/gateway.ts'
import { completionWithUsage, postChat } from '../helpers/chat.ts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.ts'

test('an Error in a field is written as its name, message and cause; bigint as a string', () => {
  const lines: string[] = []
  const log = createLogger('debug', (l) => lines.push(l))
  log.warn('x', { requestId: 'req_1', cause: new Error('boom', { cause: new TypeError('inner') }), n: 12n })
  const line = JSON.parse(lines[0]!)
  expect(line).toMatchObject({
    level: 'warn',
    msg: 'x',
    requestId: 'req_1',
    n: '12',
    cause: { name: 'Error', message: 'boom', cause: { name: 'TypeError', message: 'inner' } },
  })
  expect(Number.isNaN(Date.parse(line.t))).toBe(false)
})

describe('log lines of calls', () => {
  let up: FakeUpstream
  let gw: TestGateway
  const lines: string[] = []
  beforeAll(async () => {
    up = startFakeUpstream({ kind: 'json', body: completionWithUsage(3, 4) })
    gw = await startTestGateway(
      { db: 'pglite', store: 'memory' },
      simpleCatalog([
        { id: 'gw-a', url: up.url },
        { id: 'gw-b', url: up.url },
      ]),
    )
    gw.runtime.deps.log = createLogger('debug', (l) => lines.push(l))
    // Failover logs through the router's logger (src/routing/router.ts).
    Object.assign(gw.runtime.deps.router, { log: gw.runtime.deps.log })
  }, 30_000)
  afterAll(async () => {
    await gw.stop()
    up.stop()
  })

  test('JSON lines with the request id; upstream failures logged as warn with their cause; no key in any line', async () => {
    const u = await gw.user(1)
    const ok = await postChat(gw, u.key)
    expect(ok.status).toBe(200)
    up.script({ kind: 'status', status: 500, body: { error: { message: 'overloaded' } } })
    const failover = await postChat(gw, u.key)
    expect(failover.status).toBe(200)
    up.script({ kind: 'status', status: 500 }, { kind: 'status', status: 502 })
    const failed = await postChat(gw, u.key)
    expect(failed.status).toBe(502)
    await gw.settled()
    const parsed = lines.map((l) => JSON.parse(l))
    for (const l of parsed) {
      expect(typeof l.t).toBe('string')
      expect(['debug', 'info', 'warn', 'error']).toContain(l.level)
      expect(typeof l.msg).toBe('string')
    }
    const ids = [ok, failover, failed].map((r) => r.headers.get('x-request-id')!)
    for (const id of ids) expect(parsed.filter((l) => l.requestId === id && l.msg === 'call finished')).toHaveLength(1)
    const attempts = parsed.filter((l) => l.msg === 'upstream attempt failed')
    expect(attempts).toHaveLength(3)
    for (const a of attempts) {
      expect(a.level).toBe('warn')
      expect([ids[1], ids[2]]).toContain(a.requestId)
      expect(a.cause).toMatchObject({ status: expect.any(Number) })
    }
    expect(parsed.find((l) => l.requestId === ids[2] && l.msg === 'call finished')).toMatchObject({
      level: 'debug',
      status: 502,
      code: 'UPSTREAM_ERROR',
      model: 'acme/chat-1',
    })
    const all = lines.join('\n')
    for (const secret of [u.key, 'sk-upstream-secret']) expect(all).not.toContain(secret)
  }, 30_000)
})

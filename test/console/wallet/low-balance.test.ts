// The operator's low-balance webhook (docs/console.md "Auto top-up"): one signed POST of the
// documented body; the signature is HMAC-SHA256 of "t.body" under the secret; an error answer
// or an unreachable hook is logged, never thrown.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { LOW_BALANCE_SIGNATURE, notifyLowBalance, signBody } from '../../../src/console/wallet/low-balance.ts'
import { silentLogger } from '../../../src/lib/log.ts'

const SECRET = 'whsec_0123456789abcdef'
const NOW = Date.UTC(2026, 10, 27, 12, 0, 5, 999)

test('signBody: t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">', () => {
  const sig = signBody(SECRET, '{"a":1}', 1_700_000_000)
  expect(sig).toBe(`t=1700000000,v1=${createHmac('sha256', SECRET).update('1700000000.{"a":1}').digest('hex')}`)
  expect(signBody(SECRET, '{"a":2}', 1_700_000_000)).not.toBe(sig)
  expect(signBody(`${SECRET}x`, '{"a":1}', 1_700_000_000)).not.toBe(sig)
})

describe('notifyLowBalance against a local hook', () => {
  let server: ReturnType<typeof Bun.serve>
  const received: { body: string; headers: Headers }[] = []
  let status = 200
  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: async (req) => {
        received.push({ body: await req.text(), headers: req.headers })
        return new Response(null, { status })
      },
    })
  })
  afterAll(() => server.stop(true))
  const hook = () => ({ url: `http://127.0.0.1:${server.port}/hook`, secret: SECRET })

  test('posts the documented body, signed at the current second', async () => {
    const warnings: unknown[] = []
    await notifyLowBalance(
      hook(),
      { ...silentLogger, warn: (m) => void warnings.push(m) },
      { userId: 'usr_1', balanceMicros: 1_500_000n, thresholdMicros: 2_000_000n },
      NOW,
    )
    const { body, headers } = received.at(-1)!
    expect(JSON.parse(body)).toEqual({ type: 'balance.low', userId: 'usr_1', balance: 1.5, threshold: 2, at: new Date(NOW).toISOString() })
    expect(headers.get('content-type')).toBe('application/json')
    expect(headers.get(LOW_BALANCE_SIGNATURE)).toBe(signBody(SECRET, body, Math.floor(NOW / 1000)))
    expect(warnings).toEqual([])
  })

  test('an error answer and an unreachable hook are logged, not thrown', async () => {
    const warnings: string[] = []
    const log = { ...silentLogger, warn: (m: string) => void warnings.push(m) }
    status = 500
    await notifyLowBalance(hook(), log, { userId: 'usr_1', balanceMicros: 0n, thresholdMicros: 1n }, NOW)
    const dead = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
    const deadUrl = `http://127.0.0.1:${dead.port}/hook`
    dead.stop(true)
    await notifyLowBalance({ url: deadUrl, secret: SECRET }, log, { userId: 'usr_1', balanceMicros: 0n, thresholdMicros: 1n }, NOW)
    expect(warnings).toEqual(['low-balance webhook answered an error', 'low-balance webhook failed'])
  })
})

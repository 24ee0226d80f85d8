// What the console builds from its input (console/deps.ts): the clock is read through on each
// call (a test that pins the process's clock pins the console's), trusted proxies from config,
// the configured payment providers, and the mailer SMTP or the operator's log.
import { describe, expect, test } from 'bun:test'
import { type ConsoleInput, consoleDeps } from '../../src/console/deps.ts'
import { silentLogger } from '../../src/lib/log.ts'

const input = (config: Partial<ConsoleInput['config']> = {}, now = () => 1): ConsoleInput => ({
  db: {} as any,
  store: {} as any,
  catalog: { all: () => [] },
  auth: { invalidate: () => {} },
  log: silentLogger,
  now,
  config: {
    publicUrl: undefined,
    trustedProxies: [],
    maxBodyBytes: 1024,
    sessionTtlSeconds: 60,
    smtp: undefined,
    requireEmailVerification: false,
    defaultRpm: 60,
    topupMinUsd: 5,
    topupMaxUsd: 100,
    stripe: undefined,
    sandboxPayments: undefined,
    lowBalanceWebhook: undefined,
    ...config,
  },
})

describe('consoleDeps', () => {
  test("the clock is the input's, read on each call", () => {
    let t = 100
    const src = input({}, () => t)
    const deps = consoleDeps(src)
    expect(deps.now()).toBe(100)
    t = 200
    expect(deps.now()).toBe(200)
    src.now = () => 999
    expect(deps.now()).toBe(999)
  })

  test('trusted proxies: the configured addresses and blocks, nothing else', () => {
    const deps = consoleDeps(input({ trustedProxies: ['127.0.0.1', '10.0.0.0/8'] }))
    expect(['127.0.0.1', '10.1.2.3', '192.168.0.1', undefined].map((ip) => deps.isTrustedProxy(ip))).toEqual([true, true, false, false])
    expect(consoleDeps(input()).isTrustedProxy('127.0.0.1')).toBe(false)
  })

  test('payments and mailer follow the config', () => {
    const none = consoleDeps(input())
    expect(none.payments.size).toBe(0)
    expect(none.mailer.delivery).toBe('operator')
    const configured = consoleDeps(input({ sandboxPayments: { secret: 's' }, smtp: { url: 'smtp://127.0.0.1:9', from: 'a@b.c' } }))
    expect([...configured.payments.keys()]).toEqual(['sandbox'])
    expect(configured.mailer.delivery).toBe('email')
  })
})

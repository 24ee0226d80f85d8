// startTollgate as a user's suite uses it: many starts and stops leave nothing behind, two
// gateways in one process share nothing, the bill is the scripted usage × the catalog's price,
// and a key's limits and an empty wallet are refused as in production.
import { expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { closeIdleDatabases, startTollgate } from 'tollgate/testing'
import { call, INBOUND } from '../helpers/protocol-calls.ts'

const openFds = () => readdirSync('/proc/self/fd').length

const refused = (url: string) =>
  fetch(url).then(
    () => false,
    () => true,
  )

test('50 starts and stops: each answers, then its ports are closed and no descriptor is left open', async () => {
  const warm = await startTollgate()
  await warm.stop()
  await closeIdleDatabases()
  const before = openFds()
  for (let i = 0; i < 50; i++) {
    const tg = await startTollgate()
    const v = await call(tg.anthropicBaseURL, tg.key, 'chat', 'test/chat', false, `call ${i}`)
    expect([v.status, v.text]).toEqual([200, `You said: call ${i}`])
    await tg.stop()
    expect([await refused(`${tg.anthropicBaseURL}/healthz`), await refused(tg.upstream.url)]).toEqual([true, true])
  }
  await closeIdleDatabases()
  // Sockets closing may lag their close() by a moment; none may stay.
  for (let i = 0; i < 50 && openFds() > before; i++) await Bun.sleep(20)
  expect(openFds()).toBeLessThanOrEqual(before)
}, 600_000)

test('a process that used the kit exits on its own once its instances stopped', async () => {
  const script = `import { startTollgate } from 'tollgate/testing'
const tg = await startTollgate()
await tg.stop(); console.log('stopped')`
  const proc = Bun.spawn(['bun', '-e', script], { cwd: `${import.meta.dir}/../..`, stdout: 'pipe', stderr: 'pipe' })
  const killer = setTimeout(() => proc.kill(), 150_000)
  const code = await proc.exited
  clearTimeout(killer)
  expect([code, (await new Response(proc.stdout).text()).trim()]).toEqual([0, 'stopped'])
}, 200_000)

test('two gateways in one process: own ports, keys, users, upstreams and money', async () => {
  const [a, b] = await Promise.all([startTollgate(), startTollgate({ credit: 3 })])
  try {
    expect(a.baseURL).not.toBe(b.baseURL)
    a.upstream.on('chat', { text: 'from A' })
    expect((await call(a.anthropicBaseURL, a.key, 'chat', 'test/chat', false)).text).toBe('from A')
    expect((await call(b.anthropicBaseURL, b.key, 'chat', 'test/chat', false)).text).toBe('You said: Hello')
    // A's key means nothing to B, and A's user does not exist there.
    expect((await call(b.anthropicBaseURL, a.key, 'chat', 'test/chat', false)).status).toBe(401)
    await expect(b.admin.keys(a.user.id)).rejects.toMatchObject({ status: 404 })
    expect([a.upstream.requests.length, b.upstream.requests.length]).toEqual([1, 1])
    expect((await a.wallet.balance(a.user.id)).balance).toBeLessThan(10)
    expect(await b.wallet.balance(b.user.id)).toEqual({ balance: expect.any(Number), reserved: 0 })
    expect((await b.wallet.balance(b.user.id)).balance).toBeLessThan(3)
    expect((await b.admin.requestLog(b.user.id)).map((l) => l.status)).toEqual([200])
  } finally {
    await Promise.all([a.stop(), b.stop()])
  }
}, 120_000)

test('the bill is the scripted usage × the price, per protocol, JSON and stream; balance = credit − Σ bills', async () => {
  const tg = await startTollgate()
  try {
    // $1 / $2 per 1M tokens: 1,000 in + 500 out = 1,000 + 1,000 µUSD.
    tg.upstream.on('chat', { usage: { input: 1_000, output: 500 } })
    for (const p of INBOUND)
      for (const stream of [false, true]) expect((await call(tg.anthropicBaseURL, tg.key, p, 'test/chat', stream)).status).toBe(200)
    tg.upstream.on('embed', { usage: { input: 3_000, output: 0 } })
    const embed = await fetch(`${tg.baseURL}/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tg.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test/embed', input: 'embed me' }),
    })
    expect(embed.status).toBe(200)
    const log = await tg.admin.requestLog(tg.user.id)
    expect(log.map((l) => [l.model, Math.round(l.cost * 1e6)])).toEqual([['test/embed', 3_000], ...Array(6).fill(['test/chat', 2_000])])
    const { balance, reserved } = await tg.wallet.balance(tg.user.id)
    expect([Math.round(balance * 1e6), reserved]).toEqual([10_000_000 - 6 * 2_000 - 3_000, 0])
    const usage = (await tg.wallet.transactions(tg.user.id)).filter((t) => t.kind === 'usage')
    expect(usage.reduce((s, t) => s + Math.round(t.amount * 1e6), 0)).toBe(-(6 * 2_000 + 3_000))
  } finally {
    await tg.stop()
  }
}, 120_000)

test('keys with limits and an empty wallet: 429 past rpm, 402 without credit, and credit lifts it', async () => {
  const tg = await startTollgate()
  try {
    const limited = await tg.admin.createKey(tg.user.id, { rpm: 1 })
    expect((await call(tg.anthropicBaseURL, limited.key, 'chat', 'test/chat', false)).status).toBe(200)
    const second = await call(tg.anthropicBaseURL, limited.key, 'messages', 'test/chat', false)
    expect([second.status, JSON.parse(second.raw).error.type]).toEqual([429, 'rate_limit_error'])
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0)

    const broke = await tg.admin.createUser()
    const refusedCall = await call(tg.anthropicBaseURL, broke.key!.key, 'chat', 'test/chat', false)
    expect([refusedCall.status, JSON.parse(refusedCall.raw).error.code]).toEqual([402, 'PAYMENT_REQUIRED'])
    expect(await tg.wallet.credit(broke.id, 1)).toBe(1)
    expect((await call(tg.anthropicBaseURL, broke.key!.key, 'chat', 'test/chat', false)).status).toBe(200)
    expect((await tg.admin.requestLog(broke.id)).map((l) => l.status)).toEqual([200, 402])

    const capped = await tg.admin.createKey(tg.user.id, { limit: 0.5, models: ['test/claude'] })
    expect((await tg.admin.keys(tg.user.id)).find((k) => k.id === capped.id)).toMatchObject({ limit: 0.5, spent: 0 })
    expect((await call(tg.anthropicBaseURL, capped.key, 'chat', 'test/chat', false)).status).toBe(403)
  } finally {
    await tg.stop()
  }
}, 120_000)

// The README's first command: `bun run demo` starts Tollgate on embedded defaults with a local
// demo upstream, prints a key and a curl that works — through all three protocols — and a
// console sign-in (email + password) with the sandbox payment provider on, so a top-up works.
// It prints the console's address; over kept data a re-run prints the real balance and the same
// key and password, or says which one it rotated.
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

interface Demo {
  out: string
  base: string
  key: string
  password: string
  stop(): Promise<void>
}

/** Starts `bun run demo` and reads its banner. */
async function startDemo(databaseUrl: string): Promise<Demo> {
  const proc = Bun.spawn(['bun', new URL('../../src/demo.ts', import.meta.url).pathname], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const reader = proc.stdout.getReader()
  let out = ''
  while (!/curl -s (http:\S+)\/v1\/chat\/completions/.test(out) || !out.includes('/api/wallet/account\n')) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`demo exited: ${out}`)
    out += new TextDecoder().decode(value)
  }
  reader.releaseLock()
  return {
    out,
    base: /curl -s (http:\S+)\/v1\/chat\/completions/.exec(out)![1]!,
    key: /\b(sk-[0-9A-Za-z]{40})\b/.exec(out)![1]!,
    password: /Sign in as \S+ with password (\S+) \(/.exec(out)![1]!,
    async stop() {
      proc.kill()
      await proc.exited
    },
  }
}

const chat = (base: string, key: string, content: string) =>
  fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo-1', messages: [{ role: 'user', content }] }),
  })

test('the demo prints a working key and curl', async () => {
  const demo = await startDemo('memory://')
  const { out, base, key } = demo
  try {
    // The console's address, which serves the console.
    expect(out).toContain(`Console: ${base}/console\n`)
    const page = await fetch(`${base}/console`)
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])
    expect(out).toContain('Demo user demo@tollgate.local has $10.00 of credit. Demo API key (new, shown once):')
    const chat = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo/echo-1', messages: [{ role: 'user', content: 'Hello, Tollgate!' }] }),
    })
    const body = (await chat.json()) as any
    expect(body.choices[0].message.content).toContain('You said: Hello, Tollgate!')
    expect(body.svc.cost).toBeGreaterThan(0)
    const messages = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo/echo-1', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] }),
    })
    expect(((await messages.json()) as any).content[0].text).toContain('You said: Hi')

    // The playground: the failing model's primary route fails over; the embedding model answers.
    const post = (path: string, body: object) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => [r.status, (await r.json()) as any] as const)
    const [flakyStatus, flaky] = await post('/v1/chat/completions', {
      model: 'demo/flaky',
      messages: [{ role: 'user', content: 'Fail over' }],
    })
    expect([flakyStatus, flaky.choices[0].message.content]).toEqual([200, 'You said: Fail over'])
    const [embedStatus, embed] = await post('/v1/embeddings', { model: 'demo/embed', input: ['a', 'b'] })
    expect([embedStatus, embed.data.length]).toEqual([200, 2])
    expect(out).toContain(`Operator pages (routes and breakers, users, reports, ledger): ${base}/console/admin`)

    // The console: the printed email and password sign in; the sandbox tops up $20.
    const [, email, password] = /Sign in as (\S+) with password (\S+) \(/.exec(out)!
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
    expect(login.status).toBe(200)
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const json = { cookie, 'content-type': 'application/json' }
    const before = (await (await fetch(`${base}/api/wallet/account`, { headers: { cookie } })).json()) as any
    expect(before.topup.providers).toContain('sandbox')
    const topup = await fetch(`${base}/api/wallet/topup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ amount: 20, provider: 'sandbox' }),
    })
    expect(topup.status).toBe(201)
    const { transactionId } = (await topup.json()) as any
    expect(out).toContain(`/api/payments/sandbox/<transactionId>/pay`)
    const pay = await fetch(`${base}/api/payments/sandbox/${transactionId}/pay`, { method: 'POST', headers: { cookie } })
    expect(pay.status).toBeLessThan(400)
    const after = (await (await fetch(`${base}/api/wallet/account`, { headers: { cookie } })).json()) as any
    expect(Math.round((after.balance - before.balance) * 1e6)).toBe(20_000_000)
  } finally {
    await demo.stop()
  }
}, 90_000)

const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-demo-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

test('a re-run over kept data prints the real balance and the same key and password, or says it rotated one', async () => {
  const db = `file://${dataDir}/pglite`
  const kept = `${dataDir}/demo.json`
  const first = await startDemo(db)
  try {
    expect(first.out).toContain(`Demo API key (new, kept in ${kept} for the next run):`)
    expect((await chat(first.base, first.key, 'Spend a little')).status).toBe(200)
  } finally {
    await first.stop()
  }
  expect(await Bun.file(kept).json()).toEqual({ key: first.key, password: first.password })

  const second = await startDemo(db)
  try {
    expect([second.key, second.password]).toEqual([first.key, first.password])
    expect(second.out).toContain(`with password ${first.password} (the same as the last run, kept in ${kept}).`)
    expect(second.out).toContain(`Demo API key (the same as the last run, kept in ${kept}):`)
    // The balance printed is the account's, after the first run's call.
    const login = await fetch(`${second.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@tollgate.local', password: second.password }),
    })
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!
    const account = (await (await fetch(`${second.base}/api/wallet/account`, { headers: { cookie } })).json()) as any
    expect(account.balance).toBeLessThan(10)
    const printed = /has \$(\d+\.\d\d) of credit/.exec(second.out)![1]!
    expect(printed).toBe((Math.floor(account.balance * 100) / 100).toFixed(2))
  } finally {
    await second.stop()
  }

  // A kept key that no longer works is replaced, and the run says so; the password stays.
  await Bun.write(kept, JSON.stringify({ key: 'sk-not-a-key', password: first.password }))
  const third = await startDemo(db)
  try {
    expect(third.key).not.toBe(first.key)
    expect(third.password).toBe(first.password)
    expect(third.out).toContain(`Demo API key (rotated: the one kept in ${kept} no longer worked):`)
    expect((await chat(third.base, third.key, 'Hi again')).status).toBe(200)
  } finally {
    await third.stop()
  }
}, 120_000)

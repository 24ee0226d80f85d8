// The README's first command: `bun run demo` starts Tollgate on embedded defaults with a local
// demo upstream, prints a key and a curl that works — through all three protocols — and a
// console sign-in (email + password) with the sandbox payment provider on, so a top-up works.
import { expect, test } from 'bun:test'

test('the demo prints a working key and curl', async () => {
  const proc = Bun.spawn(['bun', new URL('../../src/demo.ts', import.meta.url).pathname], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'memory://', LOG_LEVEL: 'error' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  try {
    const reader = proc.stdout.getReader()
    let out = ''
    while (!/curl -s (http:\S+)\/v1\/chat\/completions/.test(out) || !out.includes('/api/wallet/account')) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`demo exited: ${out}`)
      out += new TextDecoder().decode(value)
    }
    const key = /\b(sk-[0-9A-Za-z]{40})\b/.exec(out)![1]!
    const base = /curl -s (http:\S+)\/v1\/chat\/completions/.exec(out)![1]!
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

    // The console: the printed email and password sign in; the sandbox tops up $20.
    const [, email, password] = /Sign in as (\S+) with password (\S+):/.exec(out)!
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
    proc.kill()
  }
}, 30_000)

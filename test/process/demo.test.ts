// The README's first command: `bun run demo` starts Tollgate on embedded defaults with a local
// demo upstream, prints a key and a curl that works — through all three protocols.
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
    while (!/curl -s (http:\S+)\/v1\/chat\/completions/.test(out) || !out.includes('List models')) {
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
  } finally {
    proc.kill()
  }
}, 30_000)

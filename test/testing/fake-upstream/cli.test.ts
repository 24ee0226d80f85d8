// `bun run fake-upstream --port …`: the fake as a process answers every wire with the echo and
// prints where; `--help` says how a catalog's gateways point at it; a port that is not one exits
// 2 with the usage.
import { expect, test } from 'bun:test'

const ROOT = `${import.meta.dir}/../../..`

test('the process answers chat, messages, responses and embeddings on the port it was given', async () => {
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const proc = Bun.spawn(['bun', 'run', 'fake-upstream', '--port', String(port)], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  try {
    const reader = proc.stdout.getReader()
    let out = ''
    while (!out.includes('/v1/embeddings')) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`fake-upstream exited: ${out}`)
      out += new TextDecoder().decode(value)
    }
    expect(out).toContain(`fake upstream listening on http://127.0.0.1:${port}`)
    const post = (path: string, body: object) =>
      fetch(`http://127.0.0.1:${port}/v1${path}`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>)
    const turn = [{ role: 'user', content: 'Hi' }]
    expect((await post('/chat/completions', { model: 'm', messages: turn })).choices[0].message.content).toBe('You said: Hi')
    expect((await post('/messages', { model: 'm', messages: turn })).content[0].text).toBe('You said: Hi')
    expect((await post('/responses', { model: 'm', input: 'Hi' })).output[0].content[0].text).toBe('You said: Hi')
    expect((await post('/embeddings', { model: 'm', input: ['a', 'b', 'c'] })).data).toHaveLength(3)
    // The cloud wires, on the paths their gateways call (no /v1 of the fake's own).
    const converse = await fetch(`http://127.0.0.1:${port}/model/m/converse`, {
      method: 'POST',
      body: JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'Hi' }] }] }),
    }).then((r) => r.json() as Promise<any>)
    expect(converse.output.message.content[0].text).toBe('You said: Hi')
  } finally {
    proc.kill()
    await proc.exited
  }
}, 60_000)

test('a port that is not one: exit 2 and the usage', async () => {
  const proc = Bun.spawn(['bun', 'run', 'fake-upstream', '--port', 'eighty'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  expect(code).toBe(2)
  expect(err).toContain('usage: bun run fake-upstream --port <0-65535>')
}, 60_000)

test('--help: the usage, and how each cloud gateway points at the fake', async () => {
  const proc = Bun.spawn(['bun', 'run', 'fake-upstream', '--help'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  const [code, out] = await Promise.all([proc.exited, new Response(proc.stdout).text()])
  expect(code).toBe(0)
  for (const s of [
    'bedrock-anthropic',
    'bedrock-converse',
    'vertex-anthropic',
    '"type": "aws-sigv4"',
    '"tokenUrl": "<fake>/token"',
    'api-version',
  ])
    expect(out).toContain(s)
}, 60_000)

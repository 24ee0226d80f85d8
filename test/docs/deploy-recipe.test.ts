// docs/deploy.md "Without Docker", run as written in a scratch directory that links the
// repository's files: two instances on two ports and deploy/proxy.ts in front, on PostgreSQL and
// Redis already running. The test's changes to the block: free ports for 8080/8081/8082, a
// fresh database for the one `createdb` makes, this machine's Redis and a key prefix of its own.
// Then, through the proxy: the admin API (created users are seen by both instances), /v1/models
// with a key, and the proxy keeps answering when one instance is stopped.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeServices, freshDatabase, freshKeyPrefix, REDIS_URL } from '../helpers/services.ts'
import { blocks, ROOT } from './blocks.ts'

const recipe = blocks('docs/deploy.md').find((b) => b.text.includes('bun deploy/proxy.ts'))!

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describeServices('docs/deploy.md "Without Docker"', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'tg-recipe-'))
  const keys = freshKeyPrefix()
  let database: Awaited<ReturnType<typeof freshDatabase>>
  let proc: { exited: Promise<number> } | undefined
  let pids: number[] = []
  let proxy = ''
  let ports: number[] = []
  let secret = ''
  beforeAll(async () => {
    for (const f of ['package.json', 'bunfig.toml', 'tsconfig.json', 'node_modules', 'src', 'drizzle', 'deploy'])
      symlinkSync(join(ROOT, f), join(cwd, f))
    database = await freshDatabase()
    ports = [await freePort(), await freePort(), await freePort()]
    const script = recipe.text
      .replace(/^createdb .*\n/m, '')
      .replace(/postgres:\/\/\S+\/tollgate/, database.url)
      .replace(/redis:\/\/127\.0\.0\.1:6379/, REDIS_URL)
      .replace(/\b8080\b/g, String(ports[0]))
      .replace(/\b8081\b/g, String(ports[1]))
      .replace(/\b8082\b/g, String(ports[2]))
    const shell = Bun.spawn(['bash', '-c', `set -euo pipefail\n${script}\necho; echo "PIDS $(jobs -p | tr '\\n' ' ')"\nwait`], {
      cwd,
      env: { ...process.env, REDIS_PREFIX: keys.prefix, LOG_LEVEL: 'warn' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    proc = shell
    const reader = shell.stdout.getReader()
    let out = ''
    while (!/PIDS [\d ]+\n/.test(out)) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`the recipe stopped: ${out} ${await new Response(shell.stderr).text()}`)
      out += new TextDecoder().decode(value)
    }
    reader.releaseLock()
    pids = /PIDS ([\d ]+)\n/.exec(out)![1]!.trim().split(' ').map(Number)
    proxy = `http://127.0.0.1:${ports[0]}`
  }, 90_000)
  afterAll(async () => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGTERM')
      } catch {}
    }
    await proc?.exited
    await database?.drop()
    await keys.clear()
    rmSync(cwd, { recursive: true, force: true })
  }, 60_000)

  test('three processes: two instances and the proxy, which answers /readyz', async () => {
    expect(pids).toHaveLength(3)
    expect((await fetch(`${proxy}/readyz`)).status).toBe(200)
  })

  test('through the proxy: the admin API and /v1/models on both instances, sharing Postgres', async () => {
    const token = (await Bun.file(join(cwd, 'admin-token.txt')).text()).trim()
    const admin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const email = `recipe-${crypto.randomUUID()}@example.com`
    const created = await fetch(`${proxy}/api/admin/users`, { method: 'POST', headers: admin, body: JSON.stringify({ email }) })
    expect(created.status).toBe(200)
    const { id } = (await created.json()) as { id: string }
    const key = await fetch(`${proxy}/api/admin/keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ userId: id, name: 'recipe' }),
    })
    expect(key.status).toBe(200)
    secret = ((await key.json()) as { key: string }).key
    // Round robin: consecutive calls alternate between the instances; each sees the new key.
    for (let i = 0; i < 4; i++) {
      const models = await fetch(`${proxy}/v1/models`, { headers: { authorization: `Bearer ${secret}` } })
      expect(models.status).toBe(200)
      expect(((await models.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toContain('openai/gpt-4.1-mini')
    }
  })

  test('one instance stopped (SIGTERM): every call still answers, through the other', async () => {
    const [first, ...rest] = pids
    process.kill(first!, 'SIGTERM')
    pids = rest
    for (let i = 0; i < 6; i++)
      expect((await fetch(`${proxy}/v1/models`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200)
  })
})

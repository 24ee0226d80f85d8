// One process per embedded database (docs/operations.md "One process per embedded database"):
// a server holding a PGlite directory keeps a second server and admin:grant out, each stopped with
// one line naming the holder and what to do; once it stops, the directory opens again; a lock
// left by a process that died is taken over.
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DirectoryHeld, holdDirectory, LOCK_FILE } from '../../src/db/dir-lock.ts'

const ENTRY = new URL('../../src/index.ts', import.meta.url).pathname
const GRANT = new URL('../../src/admin/grant-cli.ts', import.meta.url).pathname
const dirs: string[] = []
const freshDir = async () => {
  const d = await mkdtemp(join(tmpdir(), 'tollgate-lock-'))
  dirs.push(d)
  return d
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

const env = (dir: string) => ({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: `file://${dir}`,
  REDIS_URL: '',
  LOG_LEVEL: 'error',
})

async function listening(proc: Bun.Subprocess<'ignore', 'pipe', 'pipe'>): Promise<string> {
  const reader = proc.stdout.getReader()
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`exited before listening: ${text}${await new Response(proc.stderr).text()}`)
    text += new TextDecoder().decode(value)
    const m = /tollgate listening on (http:\S+)/.exec(text)
    if (m) {
      reader.releaseLock()
      return m[1]!
    }
  }
}

async function run(cmd: string[], dir: string) {
  const proc = Bun.spawn(cmd, { env: env(dir), stdout: 'pipe', stderr: 'pipe' })
  const code = await proc.exited
  return { code, err: (await new Response(proc.stderr).text()).trim() }
}

describe('the embedded database is held by one process', () => {
  test('a second server and admin:grant stop with one line naming the holder; after it stops they open it', async () => {
    const dir = await freshDir()
    const server = Bun.spawn(['bun', ENTRY], { env: env(dir), stdout: 'pipe', stderr: 'pipe' })
    try {
      const url = await listening(server)
      const second = await run(['bun', ENTRY], dir)
      expect(second.code).toBe(1)
      expect(second.err.split('\n')).toHaveLength(1)
      expect(second.err).toContain(`the embedded database ${dir} is held by process ${server.pid}`)
      expect(second.err).toContain('stop that process first')
      const grant = await run(['bun', GRANT, 'op@example.com'], dir)
      expect(grant.code).toBe(1)
      expect(grant.err.split('\n')).toHaveLength(1)
      expect(grant.err).toStartWith(`admin:grant: the embedded database ${dir} is held by process ${server.pid}`)
      expect(grant.err).toContain('ADMIN_TOKEN')
      // The first server serves on, untouched.
      expect((await fetch(`${url}/healthz`)).status).toBe(200)
    } finally {
      server.kill('SIGTERM')
      await server.exited
    }
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
    // Now the command opens the database itself: it answers about the account, not the lock.
    const grant = await run(['bun', GRANT, 'op@example.com'], dir)
    expect(grant.err).toBe('admin:grant: no account has the email op@example.com; register it at /console first')
  }, 60_000)

  test('a lock left by a process that died is taken over; a live holder is refused; release removes only its own', async () => {
    const dir = await freshDir()
    const dead = Bun.spawn(['true'])
    await dead.exited
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: dead.pid, command: 'bun src/index.ts' }))
    const release = holdDirectory(dir, 'test')
    expect(JSON.parse(await Bun.file(join(dir, LOCK_FILE)).text())).toEqual({ pid: process.pid, command: 'test' })
    release()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
    const other = Bun.spawn(['sleep', '30'])
    try {
      await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: other.pid, command: 'bun src/index.ts' }))
      expect(() => holdDirectory(dir, 'test')).toThrow(DirectoryHeld)
      expect(existsSync(join(dir, LOCK_FILE))).toBe(true)
    } finally {
      other.kill()
    }
  })
})

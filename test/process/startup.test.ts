// Start-up failures of the real process (docs/deploy.md "Start-up failures"): each is exit code 1
// and ONE line on stderr naming the thing and the fix, never a stack trace or a password; a taken
// port stops the second process instead of sharing the port; an unset env: key is warned about.
import { afterAll, describe, expect, test } from 'bun:test'
import { rm } from 'node:fs/promises'
import { describeServices, PG_ADMIN_URL } from '../helpers/services.ts'

const ENTRY = new URL('../../src/index.ts', import.meta.url).pathname
const TMP = `/tmp/tollgate-startup-${process.pid}`
const files: string[] = []
afterAll(async () => {
  for (const f of files) await rm(f, { force: true })
})

async function file(name: string, text: string): Promise<string> {
  const path = `${TMP}-${name}`
  files.push(path)
  await Bun.write(path, text)
  return path
}

const CATALOG = (apiKey?: string) =>
  JSON.stringify({
    gateways: [{ id: 'gw-a', protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', ...(apiKey ? { apiKey } : {}) }],
    models: [
      {
        id: 'acme/chat-1',
        name: 'Chat',
        provider: 'acme',
        contextWindow: 8000,
        capabilities: ['text'],
        pricing: { input: 1, output: 2 },
        routes: [{ gateway: 'gw-a', model: 'm' }],
      },
    ],
  })

/** Runs the entry to its exit; returns the exit code and stderr. */
async function run(env: Record<string, string>): Promise<{ code: number; err: string }> {
  const proc = Bun.spawn(['bun', ENTRY], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'memory://', LOG_LEVEL: 'error', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const code = await proc.exited
  return { code, err: (await new Response(proc.stderr).text()).trim() }
}

function expectOneLine(r: { code: number; err: string }, ...parts: string[]) {
  expect(r.code).toBe(1)
  expect(r.err.split('\n')).toHaveLength(1)
  expect(r.err).toStartWith('tollgate: ')
  for (const p of parts) expect(r.err).toContain(p)
  expect(r.err).not.toContain('    at ')
}

/** A local port with nothing listening on it. */
function closedPort(): number {
  const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = s.port
  s.stop(true)
  return port
}

async function waitForListening(proc: Bun.Subprocess<'ignore', 'pipe', 'pipe'>): Promise<string> {
  const reader = proc.stdout.getReader()
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`exited before listening: ${text}`)
    text += new TextDecoder().decode(value)
    const m = /tollgate listening on (http:\S+)/.exec(text)
    if (m) {
      reader.releaseLock()
      return m[1]!
    }
  }
}

describe('start-up failures are one line naming the thing and the fix', () => {
  test('CATALOG_FILE missing', async () => {
    expectOneLine(await run({ CATALOG_FILE: `${TMP}-nowhere.json` }), `CATALOG_FILE ${TMP}-nowhere.json does not exist`, 'fix the path')
  })

  test('CATALOG_FILE not JSON: the file is named', async () => {
    const path = await file('broken.json', '{ "gateways": [ }')
    expectOneLine(await run({ CATALOG_FILE: path }), `CATALOG_FILE ${path} is not valid JSON`)
  })

  test('CATALOG_FILE routing to an undefined gateway: the model and gateway are named', async () => {
    const bad = JSON.parse(CATALOG())
    bad.models[0].routes.push({ gateway: 'gw-b', model: 'x' })
    const path = await file('unknown-gw.json', JSON.stringify(bad))
    expectOneLine(await run({ CATALOG_FILE: path }), path, 'acme/chat-1', 'gw-b')
  })

  test('database unreachable: host and port, the fix, and no password', async () => {
    const port = closedPort()
    expectOneLine(
      await run({ DATABASE_URL: `postgres://tollgate:hunter2secret@127.0.0.1:${port}/tollgate` }),
      `database unreachable at 127.0.0.1:${port}`,
      'DATABASE_URL',
    )
    expect((await run({ DATABASE_URL: `postgres://tollgate:hunter2secret@127.0.0.1:${port}/tollgate` })).err).not.toContain('hunter2secret')
  })

  test('Redis unreachable: one line, no ioredis error spam', async () => {
    const port = closedPort()
    const r = await run({ REDIS_URL: `redis://127.0.0.1:${port}` })
    expectOneLine(r, `Redis unreachable at 127.0.0.1:${port}`, 'REDIS_URL')
    expect(r.err).not.toContain('Unhandled error event')
  })

  test('a taken port stops the second process with one line; the first keeps serving', async () => {
    const first = Bun.spawn(['bun', ENTRY], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'memory://', LOG_LEVEL: 'error' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    try {
      const url = await waitForListening(first)
      const port = new URL(url).port
      expectOneLine(await run({ PORT: port }), `port ${port} on 127.0.0.1 is already in use`, 'PORT')
      expect((await fetch(`${url}/healthz`)).status).toBe(200)
    } finally {
      first.kill('SIGKILL')
    }
  })

  test('an env: gateway key naming an unset variable is warned about at start; the process starts', async () => {
    const path = await file('env-key.json', CATALOG('env:TOLLGATE_TEST_NEVER_SET_KEY'))
    const env: Record<string, string | undefined> = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'memory://',
      LOG_LEVEL: 'warn',
      CATALOG_FILE: path,
    }
    delete env.TOLLGATE_TEST_NEVER_SET_KEY
    const proc = Bun.spawn(['bun', ENTRY], { env, stdout: 'pipe', stderr: 'pipe' })
    try {
      await waitForListening(proc)
      proc.kill('SIGTERM')
      await proc.exited
      const warn = (await new Response(proc.stderr).text())
        .split('\n')
        .filter((l) => l.includes('gw-a'))
        .map((l) => JSON.parse(l))
      expect(warn).toHaveLength(1)
      expect(warn[0]).toMatchObject({ level: 'warn', gateway: 'gw-a', apiKey: 'env:TOLLGATE_TEST_NEVER_SET_KEY' })
    } finally {
      proc.kill('SIGKILL')
    }
  })
})

describeServices('start-up failures against the real PostgreSQL', () => {
  test('a database that does not exist: named, with createdb as the fix', async () => {
    const url = new URL(PG_ADMIN_URL)
    url.pathname = '/tg_missing_db_for_startup_test'
    expectOneLine(
      await run({ DATABASE_URL: url.toString() }),
      'database "tg_missing_db_for_startup_test" does not exist',
      'createdb tg_missing_db_for_startup_test',
    )
  })
})

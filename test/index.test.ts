// The entry point (src/index.ts) as a process: the one listening line naming the database and
// store it started on, /metrics moved to METRICS_PORT's own listener, and SIGINT draining to
// exit 0.
import { afterAll, expect, test } from 'bun:test'
import { describeServices, freshDatabase } from './helpers/services.ts'

const ENTRY = new URL('../src/index.ts', import.meta.url).pathname

const freePort = () => {
  const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = s.port
  s.stop(true)
  return port
}

async function lineMatching(stream: ReadableStream<Uint8Array>, re: RegExp): Promise<RegExpExecArray> {
  const reader = stream.getReader()
  const dec = new TextDecoder()
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`output ended before ${re}: ${text}`)
    text += dec.decode(value)
    const m = re.exec(text)
    if (m) {
      reader.releaseLock()
      return m
    }
  }
}

describeServices('tollgate process', () => {
  const drops: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const d of drops) await d()
  }, 60_000)

  test('says where it listens and on what; METRICS_PORT serves /metrics apart; SIGINT exits 0', async () => {
    const db = await freshDatabase()
    drops.push(db.drop)
    const metricsPort = freePort()
    const proc = Bun.spawn(['bun', ENTRY], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: db.url,
        REDIS_URL: '',
        METRICS_PORT: String(metricsPort),
        LOG_LEVEL: 'error',
      },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    try {
      const m = await lineMatching(proc.stdout, /tollgate listening on (http:\/\/127\.0\.0\.1:\d+) \(database: (\w+), store: (\w+)\)/)
      const [, url, database, store] = m
      expect([database, store]).toEqual(['postgres', 'memory'])
      expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' })
      // moved off the main listener…
      expect((await fetch(`${url}/metrics`)).status).toBe(404)
      // …onto its own
      const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
      expect(metrics.status).toBe(200)
      expect(await metrics.text()).toContain('tollgate_database_up 1')
      proc.kill('SIGINT')
      expect(await proc.exited).toBe(0)
    } finally {
      proc.kill('SIGKILL')
    }
  }, 60_000)
})

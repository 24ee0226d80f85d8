// The ledger writer's thread (started by ledger-thread.ts): its own Postgres pool and Redis
// connection, one LedgerWriter, and messages to the runtime for its logs, metrics and counters.
// It is driven by the runtime's messages only: open, start, stop (drain), close.
import { connectPostgres, type Database } from '../db/client.ts'
import type { Logger } from '../lib/log.ts'
import { createRedisStore } from '../store/redis.ts'
import type { Store } from '../store/types.ts'
import type { FromThread, LedgerThreadConfig, ToThread } from './ledger-thread.ts'
import { LedgerWriter, type WriterMetrics } from './ledger-writer.ts'

declare const self: Worker

const send = (m: FromThread) => self.postMessage(m)

const log: Logger = {
  debug: (msg, fields) => send({ type: 'log', level: 'debug', msg, fields }),
  info: (msg, fields) => send({ type: 'log', level: 'info', msg, fields }),
  warn: (msg, fields) => send({ type: 'log', level: 'warn', msg, fields }),
  error: (msg, fields) => send({ type: 'log', level: 'error', msg, fields }),
}

const metrics: WriterMetrics = {
  writerBatch: { observe: (value) => send({ type: 'metric', name: 'writerBatch', value }) },
  writerBatchSeconds: { observe: (value) => send({ type: 'metric', name: 'writerBatchSeconds', value }) },
  writerRecords: { inc: (value) => send({ type: 'metric', name: 'writerRecords', value }) },
  writerFailures: { inc: () => send({ type: 'metric', name: 'writerFailures', value: 1 }) },
  deadLetters: { inc: ({ reason }) => send({ type: 'metric', name: 'deadLetters', value: 1, reason }) },
}

let opened: { database: Database; store: Store; writer: LedgerWriter } | undefined

async function open(c: LedgerThreadConfig): Promise<void> {
  const database = await connectPostgres(c.databaseUrl, 2)
  const store = await createRedisStore(c.redis, c.keySpace, c.commandTimeoutMs).catch(async (e) => {
    await database.close()
    throw e
  })
  const writer = new LedgerWriter({
    db: database.db,
    store,
    log,
    batch: c.batch,
    blockMs: c.blockMs,
    lingerMs: c.lingerMs,
    metrics,
    changed: (counters) => send({ type: 'counters', counters: { ...counters } }),
  })
  opened = { database, store, writer }
}

async function close(): Promise<void> {
  if (!opened) return
  const { database, store, writer } = opened
  opened = undefined
  await writer.stop()
  await store.close()
  await database.close()
}

self.onmessage = (e: MessageEvent<ToThread>) => {
  const m = e.data
  if (m.type === 'open')
    open(m.config).then(
      () => send({ type: 'opened' }),
      (err) => send({ type: 'failed', error: String(err) }),
    )
  else if (m.type === 'start') opened?.writer.start()
  else {
    const work = m.type === 'stop' ? (opened?.writer.stop() ?? Promise.resolve()) : close()
    work.then(
      () => send({ type: 'done', id: m.id }),
      (err) => send({ type: 'done', id: m.id, error: String(err) }),
    )
  }
}

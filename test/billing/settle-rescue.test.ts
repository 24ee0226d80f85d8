// The settlement fallback's spool (docs/operations.md "Settlement fallback"): a record that
// can reach neither Postgres nor the outbox is retried with backoff until one takes it, then
// the account's mirror is dropped; what is still unwritten at shutdown is logged whole.
import { describe, expect, test } from 'bun:test'
import { encodeRecord } from '../../src/billing/outbox-record.ts'
import { SettleRescue } from '../../src/billing/settle-rescue.ts'
import type { Db } from '../../src/db/client.ts'
import type { Logger } from '../../src/lib/log.ts'
import { createMemoryStore } from '../../src/store/memory.ts'
import { usageRecord } from '../helpers/records.ts'
import { until } from '../helpers/until.ts'

/** A call's record as settlement hands it over (the fallback writes it as the ledger writer would). */
const record = (requestId: string, userId: string) => encodeRecord(usageRecord({ requestId, userId, keyId: 'key_a', cost: '5' }))

function harness() {
  const state = { pgUp: false, storeUp: false, statements: 0, forgotten: [] as string[], errors: [] as Record<string, unknown>[] }
  const db = {
    execute: async () => {
      if (!state.pgUp) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
      state.statements++
      return [{ inserted: 1 }]
    },
  } as unknown as Db
  const store = createMemoryStore()
  const appendOutbox = store.appendOutbox.bind(store)
  store.appendOutbox = async (u, r) => {
    if (!state.storeUp) throw new Error('Stream isn’t writeable')
    await appendOutbox(u, r)
  }
  store.forgetAccount = async (u, leaseId) => {
    if (!state.storeUp) throw new Error('Stream isn’t writeable')
    state.forgotten.push(leaseId === undefined ? u : `${u} ${leaseId}`)
  }
  const log: Logger = { debug() {}, info() {}, warn() {}, error: (_m, f) => void state.errors.push(f ?? {}) }
  return { state, store, rescue: new SettleRescue(db, store, log) }
}

describe('SettleRescue', () => {
  test('Postgres up: written directly once, then the mirror is dropped (retried until the store answers)', async () => {
    const { state, rescue } = harness()
    state.pgUp = true
    await rescue.rescue('usr_a', record('req_1', 'usr_a'))
    expect(state.statements).toBe(1)
    expect(rescue.counters.writtenDirect).toBe(1)
    expect(rescue.spooled).toBe(1) // written, mirror not dropped yet
    state.storeUp = true
    await until(() => rescue.spooled === 0, 'mirror dropped')
    expect(state.forgotten).toEqual(['usr_a'])
    expect(state.statements).toBe(1) // the retry did not write it again
    await rescue.close()
  })

  test("before an admission, the account's waiting mirror drops run at once; other accounts' wait; nothing waiting, no promise", async () => {
    const { state, rescue } = harness()
    state.pgUp = true
    await rescue.rescue('usr_a', record('req_1', 'usr_a'), true, 'req_1')
    await rescue.rescue('usr_b', record('req_2', 'usr_b'), true, 'req_2')
    expect(rescue.spooled).toBe(2)
    expect(rescue.beforeAdmit('usr_c')).toBeUndefined()
    state.storeUp = true // Redis is back; the spool's timed retry has not come yet
    await rescue.beforeAdmit('usr_a')
    expect(state.forgotten).toEqual(['usr_a req_1'])
    expect(rescue.spooled).toBe(1)
    expect(rescue.beforeAdmit('usr_a')).toBeUndefined()
    await rescue.close()
  })

  test('both down: spooled and retried; the outbox takes it when the store returns', async () => {
    const { state, store, rescue } = harness()
    await rescue.rescue('usr_b', '{"v":1,"requestId":"req_b"}')
    await rescue.rescue('usr_b', '{"v":1,"requestId":"req_log"}', false)
    expect(rescue.spooled).toBe(2)
    state.storeUp = true
    await until(() => rescue.spooled === 0, 'spool emptied')
    expect(rescue.counters.appended).toBe(2)
    expect(rescue.counters.retries).toBeGreaterThan(0)
    expect(state.forgotten).toEqual(['usr_b']) // only the settlement drops the mirror
    expect((await store.readOutbox('t', 10, 0)).map((e) => e.record)).toEqual([
      '{"v":1,"requestId":"req_b"}',
      '{"v":1,"requestId":"req_log"}',
    ])
    await rescue.close()
  })

  test('still unwritten at shutdown: each record is logged whole for replay', async () => {
    const { state, rescue } = harness()
    await rescue.rescue('usr_c', '{"v":1,"requestId":"req_c"}')
    await rescue.close()
    expect(state.errors.at(-1)).toEqual({ userId: 'usr_c', record: '{"v":1,"requestId":"req_c"}' })
  })

  test('dropMirror after an admit without an answer: the mirror and that lease, one pending drop per lease, retried until the store answers', async () => {
    const { state, rescue } = harness()
    rescue.dropMirror('usr_d', 'req_d1')
    await until(() => rescue.spooled === 1, 'drop spooled')
    rescue.dropMirror('usr_d', 'req_d1')
    rescue.dropMirror('usr_d', 'req_d1')
    expect(rescue.counters.mirrorDrops).toBe(1)
    // Another unanswered admit of the account: its lease must end too.
    rescue.dropMirror('usr_d', 'req_d2')
    await until(() => rescue.spooled === 2, 'second drop spooled')
    expect(rescue.counters.mirrorDrops).toBe(2)
    state.storeUp = true
    await until(() => rescue.spooled === 0, 'drops done')
    expect(state.forgotten).toEqual(['usr_d req_d1', 'usr_d req_d2'])
    await rescue.close()
  })

  test('a direct write that hangs counts as failed after its deadline: the outbox takes the record', async () => {
    const { state, store } = harness()
    const hanging = { execute: () => new Promise(() => {}) } as unknown as Db
    const rescue = new SettleRescue(hanging, store, { debug() {}, info() {}, warn() {}, error() {} }, 50)
    state.storeUp = true
    await rescue.rescue('usr_e', '{"v":1,"requestId":"req_e"}')
    expect(rescue.counters.appended).toBe(1)
    expect(rescue.spooled).toBe(0)
    expect(state.forgotten).toEqual(['usr_e'])
    await rescue.close()
  })
})

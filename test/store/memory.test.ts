// The in-process store (embedded default): the upkeep contract, and what only one process can
// promise — a waiting outbox read is woken by an append at once and released by close.
import { expect, test } from 'bun:test'
import { createMemoryStore } from '../../src/store/memory.ts'
import { upkeepContract } from './upkeep-contract.ts'

upkeepContract('memory', async () => ({ store: createMemoryStore(), done: async () => {} }))

test('its kind is memory and it keeps no append-only file to ask about', async () => {
  const store = createMemoryStore()
  expect(store.kind).toBe('memory')
  expect(await store.appendOnly()).toBeUndefined()
})

test('a waiting read returns as soon as a record is appended', async () => {
  const store = createMemoryStore()
  const started = Date.now()
  const read = store.readOutbox('w', 10, 20_000)
  await Bun.sleep(5)
  await store.appendOutbox('usr_1', '{"x":1}')
  expect((await read).map((e) => e.record)).toEqual(['{"x":1}'])
  // woken by the append, not by its 20 s wait
  expect(Date.now() - started).toBeLessThan(10_000)
})

test('close releases a waiting read with nothing', async () => {
  const store = createMemoryStore()
  const read = store.readOutbox('w', 10, 20_000)
  await Bun.sleep(5)
  await store.close()
  expect(await read).toEqual([])
})

test('reclaim hands over only entries idle at least minIdleMs, and makes them the new consumer’s', async () => {
  const store = createMemoryStore()
  await store.appendOutbox('u', 'a')
  const [entry] = await store.readOutbox('dead', 10, 0)
  expect(entry?.record).toBe('a')
  expect(await store.reclaimOutbox('live', 60_000, 10)).toEqual([])
  expect((await store.reclaimOutbox('live', 0, 10)).map((e) => e.record)).toEqual(['a'])
  expect((await store.ownPendingOutbox('live', 10)).map((e) => e.record)).toEqual(['a'])
  expect(await store.ownPendingOutbox('dead', 10)).toEqual([])
})

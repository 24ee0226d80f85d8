// The breaker board on a real Redis keeps the board contract across two instances (two boards,
// each with its own connections), and a snapshot skips a malformed hash value.
import { afterAll, describe, expect, test } from 'bun:test'
import Redis from 'ioredis'
import { createRedisBoard } from '../../src/store/breaker-board-redis.ts'
import { freshKeyPrefix, REDIS_URL, SERVICES } from '../helpers/services.ts'
import { boardContract } from './board-contract.ts'

if (SERVICES) {
  const keys = freshKeyPrefix()
  afterAll(() => keys.clear())

  boardContract('redis', async () => {
    const prefix = `${keys.prefix}${crypto.randomUUID()}:`
    return { a: await createRedisBoard(REDIS_URL, prefix), b: await createRedisBoard(REDIS_URL, prefix) }
  })

  describe('breaker board on Redis', () => {
    test('a snapshot reads the hash and skips a value that is not a breaker state', async () => {
      const prefix = `${keys.prefix}${crypto.randomUUID()}:`
      const board = await createRedisBoard(REDIS_URL, prefix)
      const raw = new Redis(REDIS_URL)
      try {
        await board.publish('good', { phase: 'open', until: 42 })
        await raw.hset(`${prefix}breakers`, 'bad', '{"phase":"open"}', 'worse', 'not json')
        expect([...(await board.snapshot())]).toEqual([['good', { phase: 'open', until: 42 }]])
      } finally {
        raw.disconnect()
        await board.close()
      }
    })

    test('boards of different prefixes do not see each other', async () => {
      const a = await createRedisBoard(REDIS_URL, `${keys.prefix}${crypto.randomUUID()}:`)
      const b = await createRedisBoard(REDIS_URL, `${keys.prefix}${crypto.randomUUID()}:`)
      try {
        await a.publish('k', { phase: 'open', until: 1 })
        expect((await b.snapshot()).size).toBe(0)
        expect(await a.claimProbe('k', 10_000)).toBe(true)
        expect(await b.claimProbe('k', 10_000)).toBe(true)
      } finally {
        await a.close()
        await b.close()
      }
    })
  })
}

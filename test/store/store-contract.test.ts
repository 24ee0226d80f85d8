// The store contracts (./contract.ts, ./key-limits-contract.ts) on the in-process store and on one real Redis.
import { createMemoryStore } from '../../src/store/memory.ts'
import { createRedisStore } from '../../src/store/redis.ts'
import { freshKeyPrefix, REDIS_URL, SERVICES } from '../helpers/services.ts'
import { storeContract } from './contract.ts'
import { keyLimitsContract } from './key-limits-contract.ts'

storeContract('memory', async () => ({ store: createMemoryStore(), done: async () => {} }))

if (SERVICES)
  storeContract('redis', async () => {
    const keys = freshKeyPrefix()
    const store = await createRedisStore(REDIS_URL, { prefix: keys.prefix, shards: 4 })
    return { store, done: async () => (await store.close(), await keys.clear()) }
  })

keyLimitsContract('memory', async () => ({ store: createMemoryStore(), done: async () => {} }))

if (SERVICES)
  keyLimitsContract('redis', async () => {
    const keys = freshKeyPrefix()
    const store = await createRedisStore(REDIS_URL, { prefix: keys.prefix, shards: 4 })
    return { store, done: async () => (await store.close(), await keys.clear()) }
  })

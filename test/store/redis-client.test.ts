// Connecting to one Redis by URL: a reachable server answers; an unreachable one fails at once
// with the socket's own cause (ECONNREFUSED), not ioredis's "Connection is closed".
import { describe, expect, test } from 'bun:test'
import { connectRedis } from '../../src/store/redis-client.ts'
import { REDIS_URL, SERVICES } from '../helpers/services.ts'

/** A port nothing listens on: taken from the OS, then released. */
const freePort = () => {
  const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = s.port
  s.stop(true)
  return port
}

describe('connectRedis', () => {
  test('an unreachable server rejects with its cause', async () => {
    const err = await connectRedis(`redis://127.0.0.1:${freePort()}`, { retryStrategy: () => null, maxRetriesPerRequest: 0 }).catch(
      (e: unknown) => e as { code?: string },
    )
    expect((err as { code?: string }).code).toBe('ECONNREFUSED')
  })

  if (SERVICES)
    test('a reachable server is connected and keeps working after a command error', async () => {
      const client = await connectRedis(REDIS_URL, { maxRetriesPerRequest: 0 })
      try {
        expect(await client.ping()).toBe('PONG')
        await expect(client.call('NOSUCHCOMMAND')).rejects.toThrow(/unknown command/i)
        // the error listener is installed: a failed command does not take the connection down
        expect(await client.ping()).toBe('PONG')
        expect(client.status).toBe('ready')
      } finally {
        client.disconnect()
      }
    })

  if (SERVICES)
    test('a wrong password is refused with the server’s own reason', async () => {
      const url = new URL(REDIS_URL)
      url.username = 'nobody-here'
      url.password = 'wrong'
      const err = await connectRedis(url.toString(), { retryStrategy: () => null, maxRetriesPerRequest: 0 }).catch((e: unknown) => e)
      expect(String((err as Error).message)).toMatch(/WRONGPASS|NOAUTH|invalid|ERR/i)
    })
})

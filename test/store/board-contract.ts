// The breaker board's contract (src/store/breaker-board.ts), kept by the in-process board and the
// Redis one alike: a published change is seen by every subscriber and by the next snapshot; the
// half-open probe slot goes to one caller per cool-down.
import { afterAll, describe, expect, test } from 'bun:test'
import type { BreakerBoard, SharedBreaker } from '../../src/store/breaker-board.ts'
import { until } from '../helpers/until.ts'

/** Two boards of one deployment (two instances); for the in-process board both are the same one. */
export type BoardPair = () => Promise<{ a: BreakerBoard; b: BreakerBoard }>

export function boardContract(name: string, make: BoardPair): void {
  describe(`breaker board: ${name}`, () => {
    const opened: BreakerBoard[] = []
    const pair = async () => {
      const p = await make()
      opened.push(p.a, p.b)
      return p
    }
    afterAll(async () => {
      for (const b of new Set(opened)) await b.close()
    })

    test('an open breaker is in the snapshot until it is published closed', async () => {
      const { a, b } = await pair()
      const openUntil = Date.now() + 60_000
      await a.publish('gw-1|m', { phase: 'open', until: openUntil })
      expect((await b.snapshot()).get('gw-1|m')).toEqual({ phase: 'open', until: openUntil })
      await a.publish('gw-1|m', { phase: 'closed' })
      expect((await b.snapshot()).has('gw-1|m')).toBe(false)
    })

    test('every subscriber hears a change, in order', async () => {
      const { a, b } = await pair()
      const heard: [string, SharedBreaker][] = []
      b.subscribe((key, state) => heard.push([key, state]))
      const key = `gw-${crypto.randomUUID()}`
      await a.publish(key, { phase: 'open', until: 123 })
      await a.publish(key, { phase: 'closed' })
      await until(() => heard.filter(([k]) => k === key).length === 2, 'both changes heard', 5_000)
      expect(heard.filter(([k]) => k === key)).toEqual([
        [key, { phase: 'open', until: 123 }],
        [key, { phase: 'closed' }],
      ])
    })

    test('one probe per cool-down across instances; released, it can be claimed again', async () => {
      const { a, b } = await pair()
      const key = `probe-${crypto.randomUUID()}`
      const claims = await Promise.all([a.claimProbe(key, 10_000), b.claimProbe(key, 10_000), a.claimProbe(key, 10_000)])
      expect(claims.filter(Boolean)).toHaveLength(1)
      await b.releaseProbe(key)
      expect(await b.claimProbe(key, 10_000)).toBe(true)
      expect(await a.claimProbe(key, 10_000)).toBe(false)
    })

    test('a claimed probe slot frees itself after its ttl', async () => {
      const { a, b } = await pair()
      const key = `probe-${crypto.randomUUID()}`
      expect(await a.claimProbe(key, 30)).toBe(true)
      expect(await b.claimProbe(key, 30)).toBe(false)
      await Bun.sleep(60)
      expect(await b.claimProbe(key, 30)).toBe(true)
    })
  })
}

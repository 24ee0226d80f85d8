import { describe, expect, test } from 'bun:test'
import { SettleBatch } from '../../src/store/settle-batch.ts'

/** A batcher whose flushes the test runs by hand; `sent` records each call's inputs. */
function manual(send: (inputs: number[]) => Promise<number[]>, max = 4) {
  const pending: (() => void)[] = []
  const sent: number[][] = []
  const batch = new SettleBatch<number, number>(
    (inputs) => {
      sent.push(inputs)
      return send(inputs)
    },
    max,
    (flush) => pending.push(flush),
  )
  const runScheduled = () => {
    while (pending.length > 0) pending.shift()!()
  }
  return { batch, sent, runScheduled }
}

describe('SettleBatch', () => {
  test('what is added in one turn goes in one call, and each caller gets its own answer', async () => {
    const { batch, sent, runScheduled } = manual(async (xs) => xs.map((x) => x * 10))
    const answers = Promise.all([batch.add(1), batch.add(2), batch.add(3)])
    expect(sent).toEqual([])
    runScheduled()
    expect(await answers).toEqual([10, 20, 30])
    expect(sent).toEqual([[1, 2, 3]])
  })

  test('a full batch goes at once; the rest waits for the next flush', async () => {
    const { batch, sent, runScheduled } = manual(async (xs) => xs, 2)
    const answers = Promise.all([1, 2, 3, 4, 5].map((x) => batch.add(x)))
    expect(sent).toEqual([
      [1, 2],
      [3, 4],
    ])
    runScheduled()
    expect(await answers).toEqual([1, 2, 3, 4, 5])
    expect(sent).toEqual([[1, 2], [3, 4], [5]])
  })

  test('a failed call fails every settlement in it, and only those', async () => {
    const { batch, runScheduled } = manual(async (xs) => {
      if (xs.includes(1)) throw new Error('redis down')
      return xs
    })
    const first = [batch.add(1), batch.add(2)].map((p) => p.catch((e: Error) => e.message))
    runScheduled()
    const second = batch.add(3)
    runScheduled()
    expect(await Promise.all(first)).toEqual(['redis down', 'redis down'])
    expect(await second).toBe(3)
  })

  test('a sender that throws instead of rejecting fails its batch the same way', async () => {
    const { batch, runScheduled } = manual(() => {
      throw new Error('no connection')
    })
    const answer = batch.add(1).catch((e: Error) => e.message)
    runScheduled()
    expect(await answer).toBe('no connection')
  })

  test('by default the flush comes after the turn: settlements of one turn share a call', async () => {
    const sent: number[][] = []
    const batch = new SettleBatch<number, number>(async (xs) => (sent.push(xs), xs), 64)
    expect(await Promise.all([batch.add(1), batch.add(2)])).toEqual([1, 2])
    expect(await batch.add(3)).toBe(3)
    expect(sent).toEqual([[1, 2], [3]])
  })
})

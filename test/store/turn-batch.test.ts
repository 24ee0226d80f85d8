import { describe, expect, test } from 'bun:test'
import { TurnBatch } from '../../src/store/turn-batch.ts'

/** A batcher whose flushes the test runs by hand; `sent` records each call's inputs. */
function manual(send: (inputs: number[]) => Promise<number[]>, max = 4, eager = false) {
  const pending: (() => void)[] = []
  const sent: number[][] = []
  const batch = new TurnBatch<number, number>(
    (inputs) => {
      sent.push(inputs)
      return send(inputs)
    },
    max,
    { eager, schedule: (flush) => pending.push(flush) },
  )
  const runScheduled = () => {
    while (pending.length > 0) pending.shift()!()
  }
  return { batch, sent, runScheduled }
}

describe('TurnBatch', () => {
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
    const batch = new TurnBatch<number, number>(async (xs) => (sent.push(xs), xs), 64)
    expect(await Promise.all([batch.add(1), batch.add(2)])).toEqual([1, 2])
    expect(await batch.add(3)).toBe(3)
    expect(sent).toEqual([[1, 2], [3]])
  })

  test('eager (admissions): a call that finds the batcher idle goes at once, alone; the ones after it gather', async () => {
    const answers: (() => void)[] = []
    const { batch, sent, runScheduled } = manual(
      (xs) => new Promise((resolve) => answers.push(() => resolve(xs.map((x) => x * 10)))),
      4,
      true,
    )
    const first = batch.add(1)
    expect(sent).toEqual([[1]])
    const rest = [batch.add(2), batch.add(3)]
    expect(sent).toEqual([[1]])
    runScheduled()
    expect(sent).toEqual([[1], [2, 3]])
    for (const a of answers) a()
    expect(await first).toBe(10)
    expect(await Promise.all(rest)).toEqual([20, 30])
  })

  test('eager: with a round trip still out, a new call waits for the end of the turn', async () => {
    const answers: (() => void)[] = []
    const { batch, sent, runScheduled } = manual((xs) => new Promise((resolve) => answers.push(() => resolve(xs))), 4, true)
    const first = batch.add(1)
    runScheduled()
    const second = batch.add(2)
    expect(sent).toEqual([[1]])
    runScheduled()
    expect(sent).toEqual([[1], [2]])
    for (const a of answers) a()
    expect(await Promise.all([first, second])).toEqual([1, 2])
    // Idle again: the next call goes at once.
    void batch.add(3)
    expect(sent).toEqual([[1], [2], [3]])
  })

  test('eager: a failed round trip leaves the batcher idle, so the next call still goes at once', async () => {
    const { batch, sent } = manual(
      async () => {
        throw new Error('redis down')
      },
      4,
      true,
    )
    expect(await batch.add(1).catch((e: Error) => e.message)).toBe('redis down')
    void batch.add(2).catch(() => {})
    expect(sent).toEqual([[1], [2]])
  })

  test('more than max in one turn: every input is sent, in order, at most max per call', async () => {
    const { batch, sent, runScheduled } = manual(async (xs) => xs, 2)
    const answers = Promise.all([1, 2, 3, 4, 5, 6, 7].map((x) => batch.add(x)))
    runScheduled()
    expect(await answers).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(sent.flat()).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(Math.max(...sent.map((b) => b.length))).toBe(2)
  })
})

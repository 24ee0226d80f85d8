// withDeadline: the caller stops waiting after `ms` with a DeadlineError naming the work; a
// promise that settles in time keeps its own value or error.
import { describe, expect, test } from 'bun:test'
import { DeadlineError, withDeadline } from '../../src/lib/deadline.ts'

const never = () => new Promise<never>(() => {})

describe('withDeadline', () => {
  test('a promise that settles in time passes its value through', async () => {
    expect(await withDeadline(Promise.resolve(42), 1_000, 'lookup')).toBe(42)
  })

  test('a promise that rejects in time keeps its own error', async () => {
    const own = new Error('boom')
    expect(withDeadline(Promise.reject(own), 1_000, 'lookup')).rejects.toBe(own)
  })

  test('a promise still pending after ms is a DeadlineError naming the work and the bound', async () => {
    const err = await withDeadline(never(), 5, 'the balance read').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(DeadlineError)
    expect((err as Error).message).toBe('the balance read took longer than 5 ms')
  })

  test.each([0, -1, Number.NaN])('ms = %p sets no bound: the same promise is returned', (ms) => {
    const p = never()
    expect(withDeadline(p, ms, 'x')).toBe(p)
  })
})

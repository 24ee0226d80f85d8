import { expect, test } from 'bun:test'
import { ByteQueue } from '../../../src/providers/transport/byte-queue.ts'

const bytes = (...v: number[]) => new Uint8Array(v)

test('a large piece is handed out in views of at most max bytes, in order', () => {
  const q = new ByteQueue()
  const big = new Uint8Array(10).map((_, i) => i)
  q.push(big)
  const a = q.take(4)!
  expect([...a]).toEqual([0, 1, 2, 3])
  expect(a.buffer).toBe(big.buffer) // a view, not a copy
  expect(q.size).toBe(6)
  expect([...q.take(4)!]).toEqual([4, 5, 6, 7])
  expect([...q.take(4)!]).toEqual([8, 9])
  expect(q.size).toBe(0)
  expect(q.take(4)).toBeUndefined()
})

test('small pieces are joined into one chunk of at most max bytes; empty pieces are ignored', () => {
  const q = new ByteQueue()
  q.push(bytes(1, 2))
  q.push(bytes())
  q.push(bytes(3, 4, 5))
  q.push(bytes(6))
  expect(q.size).toBe(6)
  expect([...q.take(4)!]).toEqual([1, 2, 3, 4])
  expect([...q.take(4)!]).toEqual([5, 6])
  expect(q.take(4)).toBeUndefined()
})

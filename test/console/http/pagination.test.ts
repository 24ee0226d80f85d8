// The console's cursor codec: opaque, round-trips, and refuses anything it did not issue.
import { describe, expect, test } from 'bun:test'
import { decodeCursor, encodeCursor } from '../../../src/console/http/pagination.ts'

describe('cursor', () => {
  test('round-trips and is opaque', () => {
    const c = { at: '1795400201946996', id: 'txn_u_req_ABC-123_x' }
    const text = encodeCursor(c)
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeCursor(text)).toEqual(c)
    expect(decodeCursor(undefined)).toBeUndefined()
    expect(decodeCursor('')).toBeUndefined()
  })

  test.each([
    'bm9wZQ',
    Buffer.from('12.').toString('base64url'),
    Buffer.from('x.id').toString('base64url'),
    Buffer.from("1.a' or 1=1").toString('base64url'),
    '%%%',
  ])('refuses %p with 400', (text) => {
    expect(() => decodeCursor(text)).toThrow('cursor is not a cursor this API returned.')
  })
})

// HTTP/1.1 body framing of the streaming upstream client: chunked coding split anywhere,
// Content-Length, read-until-close, and malformed sizes.
import { describe, expect, test } from 'bun:test'
import { bodyDecoder } from '../../../src/providers/transport/chunked.ts'

const enc = new TextEncoder()
const dec = new TextDecoder()
const run = (headers: Record<string, string>, parts: string[]) => {
  const d = bodyDecoder(new Headers(headers))
  let out = ''
  for (const p of parts) for (const b of d.push(enc.encode(p))) out += dec.decode(b)
  return { out, done: d.done(), d }
}

describe('upstream body framing', () => {
  const wire = '5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nx-trailer: 1\r\n\r\n'

  test('chunked: decoded whole or split at every byte, complete after the last chunk and trailers', () => {
    expect(run({ 'transfer-encoding': 'chunked' }, [wire])).toMatchObject({ out: 'hello, world', done: true })
    expect(run({ 'transfer-encoding': 'chunked' }, wire.split(''))).toMatchObject({ out: 'hello, world', done: true })
  })

  test('chunked: incomplete until the zero chunk; a close before it is not a clean end', () => {
    const r = run({ 'transfer-encoding': 'chunked' }, ['5\r\nhello\r\n'])
    expect(r).toMatchObject({ out: 'hello', done: false })
    expect(r.d.endOk()).toBe(false)
  })

  test('chunked: a malformed size throws', () => {
    expect(() => run({ 'transfer-encoding': 'chunked' }, ['zz\r\nhello\r\n'])).toThrow('malformed chunk size')
    expect(() => run({ 'transfer-encoding': 'chunked' }, ['\r\nhello\r\n'])).toThrow('malformed chunk size')
    expect(() => run({ 'transfer-encoding': 'chunked' }, ['1 2\r\nx\r\n'])).toThrow('malformed chunk size')
    expect(() => run({ 'transfer-encoding': 'chunked' }, [`${'f'.repeat(13)}\r\n`])).toThrow('malformed chunk size')
  })

  test('chunked: sizes in either case with blanks before an extension; a line past 4 KiB throws', () => {
    const big = 'x'.repeat(0x1a)
    expect(run({ 'transfer-encoding': 'chunked' }, [`1A \t;name="v"\r\n${big}\r\n1a\r\n${big}\r\n0\r\n\r\n`])).toMatchObject({
      out: big + big,
      done: true,
    })
    expect(() => run({ 'transfer-encoding': 'chunked' }, [`5;${'e'.repeat(5000)}\r\n`])).toThrow('chunk line too long')
  })

  test('content-length: stops at the length, ignores bytes past it', () => {
    expect(run({ 'content-length': '5' }, ['hel', 'lo world'])).toMatchObject({ out: 'hello', done: true })
    expect(run({ 'content-length': '5' }, ['hel']).d.endOk()).toBe(false)
  })

  test('neither: the body runs until the connection closes', () => {
    const r = run({}, ['a', 'b'])
    expect(r).toMatchObject({ out: 'ab', done: false })
    expect(r.d.endOk()).toBe(true)
    expect(r.d.done()).toBe(true)
  })
})

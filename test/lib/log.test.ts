// One-line JSON logs: level filter, fields merged, bigint as text and an Error as name/message/cause.
import { describe, expect, test } from 'bun:test'
import { createLogger, silentLogger } from '../../src/lib/log.ts'

const capture = (level?: 'debug' | 'info' | 'warn' | 'error') => {
  const lines: string[] = []
  return { lines, log: createLogger(level, (l) => lines.push(l)) }
}

describe('createLogger', () => {
  test('one JSON line per entry with time, level, message and the fields', () => {
    const { lines, log } = capture('debug')
    log.info('call settled', { requestId: 'req_1', tokens: 12 })
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toContain('\n')
    const entry = JSON.parse(lines[0]!)
    expect(entry).toMatchObject({ level: 'info', msg: 'call settled', requestId: 'req_1', tokens: 12 })
    expect(Number.isNaN(Date.parse(entry.t))).toBe(false)
  })

  test('entries below the level are dropped; the default level is info', () => {
    const warn = capture('warn')
    for (const lvl of ['debug', 'info', 'warn', 'error'] as const) warn.log[lvl](lvl)
    expect(warn.lines.map((l) => JSON.parse(l).msg)).toEqual(['warn', 'error'])
    const dflt = capture()
    for (const lvl of ['debug', 'info', 'warn', 'error'] as const) dflt.log[lvl](lvl)
    expect(dflt.lines.map((l) => JSON.parse(l).level)).toEqual(['info', 'warn', 'error'])
  })

  test('a bigint is written as its digits, exactly', () => {
    const { lines, log } = capture()
    log.info('money', { micros: 123_456_789_012_345_678_901n })
    expect(JSON.parse(lines[0]!).micros).toBe('123456789012345678901')
  })

  test('an Error is written as name and message, with its cause', () => {
    const { lines, log } = capture()
    log.error('failed', { err: new TypeError('bad thing', { cause: 'the socket' }), plain: new Error('no cause') })
    const entry = JSON.parse(lines[0]!)
    expect(entry.err).toEqual({ name: 'TypeError', message: 'bad thing', cause: 'the socket' })
    expect(entry.plain).toEqual({ name: 'Error', message: 'no cause' })
  })
})

test('silentLogger writes nothing and never throws', () => {
  for (const lvl of ['debug', 'info', 'warn', 'error'] as const) expect(() => silentLogger[lvl]('x', { a: 1 })).not.toThrow()
})

import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { SseParser, type SseEvent } from '../../../src/lib/sse/parse.ts'
import { FIXTURES_DIR, fixtureSse, type FixtureProtocol } from '../../helpers/fixtures.ts'

function parseAll(text: string, split: number): SseEvent[] {
  const bytes = new TextEncoder().encode(text)
  const p = new SseParser()
  const out: SseEvent[] = []
  for (let i = 0; i < bytes.length; i += split) out.push(...p.push(bytes.slice(i, i + split)))
  return [...out, ...p.end()]
}

/** Independent reference: blank-line separated blocks, data lines joined (fixtures use LF). */
function reference(text: string): SseEvent[] {
  return text
    .split(/\n\n/)
    .map((block) => block.split('\n').filter((l) => l && !l.startsWith(':')))
    .filter((lines) => lines.some((l) => l.startsWith('data:')))
    .map((lines) => ({
      event: lines
        .find((l) => l.startsWith('event:'))
        ?.slice(6)
        .trim(),
      data: lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(l.startsWith('data: ') ? 6 : 5))
        .join('\n'),
    }))
}

const streams: [FixtureProtocol, string][] = (['openai-chat', 'anthropic-messages', 'openai-responses'] as const).flatMap((p) =>
  readdirSync(`${FIXTURES_DIR}/${p}`)
    .filter((f) => f.startsWith('stream-'))
    .map((f) => [p, f] as [FixtureProtocol, string]),
)

describe('SseParser on every recorded stream', () => {
  test('there are recorded streams to read', () => expect(streams.length).toBeGreaterThan(20))
  for (const [protocol, file] of streams) {
    test(`${protocol}/${file}: same events whatever the network split`, () => {
      const text = fixtureSse(protocol, file)
      const expected = reference(text)
      expect(expected.length).toBeGreaterThan(1)
      // Byte-by-byte on every file but the 250 KB one, where 7-byte splits already cut every line.
      const splits = text.length > 50_000 ? [7, 64, 4096] : [1, 3, 7, 64, 4096]
      for (const split of splits) expect(parseAll(text, split)).toEqual(expected)
    }, 30_000)
  }
})

/** Independent reference straight from the spec's steps, on the whole text at once. */
function specReference(text: string): SseEvent[] {
  const out: SseEvent[] = []
  let data: string[] = []
  let event: string | undefined
  const lines = text.split(/\r\n|\r|\n/)
  lines.pop() // what follows the last line break is not a line yet
  for (const line of lines) {
    if (line === '') {
      if (data.length > 0) out.push({ event, data: data.join('\n') })
      data = []
      event = undefined
      continue
    }
    if (line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'data') data.push(value)
    else if (field === 'event') event = value
  }
  return out
}

describe('SseParser on random input', () => {
  test('same events as the spec reference, whatever the line endings and the network split', () => {
    const pieces = [
      'data',
      'data:',
      'data: ',
      'event:',
      'event',
      'id: 1',
      ':',
      ': c',
      'x',
      'é',
      '世',
      ' ',
      '\n',
      '\n',
      '\r',
      '\r\n',
      '\n\n',
    ]
    let seed = 42
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return seed % n
    }
    for (let round = 0; round < 300; round++) {
      let text = ''
      for (let i = rand(60); i >= 0; i--) text += pieces[rand(pieces.length)]
      const bytes = new TextEncoder().encode(text)
      const p = new SseParser()
      const got: SseEvent[] = []
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + rand(9)
        got.push(...p.push(bytes.slice(at, at + size)))
        at += size
      }
      expect({ text, got }).toEqual({ text, got: specReference(text) })
    }
  })
})

describe('SseParser edge cases', () => {
  test('CRLF and CR line endings, split between CR and LF', () => {
    const p = new SseParser()
    expect([...p.push('event: a\r'), ...p.push('\ndata: 1\r\n\r'), ...p.push('\n'), ...p.push('data: 2\r\r')]).toEqual([
      { event: 'a', data: '1' },
      { event: undefined, data: '2' },
    ])
  })
  test('multi-line data joins with newlines; comments and unknown fields are dropped', () => {
    const p = new SseParser()
    expect(p.push(': OPENROUTER PROCESSING\n\ndata: a\ndata:b\nid: 7\nretry: 10\n\n')).toEqual([{ event: undefined, data: 'a\nb' }])
  })
  test('a field without a colon has an empty value; a colon on a later line does not count', () => {
    const p = new SseParser()
    expect(p.push('data\n\nevent\ndata\ndata: x:y\n\ndata:\n\n')).toEqual([
      { event: undefined, data: '' },
      { event: '', data: '\nx:y' },
      { event: undefined, data: '' },
    ])
  })
  test('only the exact field names count; one leading space is removed from a value', () => {
    const p = new SseParser()
    expect(p.push('dat: a\ndatax: b\neventx: c\nevent:  two spaces\ndata:  d\n\n')).toEqual([{ event: ' two spaces', data: ' d' }])
  })
  test('a long line arriving in many chunks is read whole', () => {
    const p = new SseParser()
    const value = 'v'.repeat(100_000)
    const out: SseEvent[] = []
    for (let i = 0; i < value.length; i += 1_000) out.push(...p.push(`${i === 0 ? 'data: ' : ''}${value.slice(i, i + 1_000)}`))
    out.push(...p.push('\r'), ...p.push('\n\n'))
    expect(out).toEqual([{ event: undefined, data: value }])
  })
  test('a final event without its blank line is discarded', () => {
    const p = new SseParser()
    expect([...p.push('data: complete\n\ndata: partial'), ...p.end()]).toEqual([{ event: undefined, data: 'complete' }])
  })
  test('multi-byte UTF-8 split across chunks is decoded intact', () => {
    const bytes = new TextEncoder().encode('data: héllo → 世界\n\n')
    const p = new SseParser()
    const out = [...p.push(bytes.slice(0, 9)), ...p.push(bytes.slice(9, 17)), ...p.push(bytes.slice(17))]
    expect(out).toEqual([{ event: undefined, data: 'héllo → 世界' }])
  })
})

describe('what a parser keeps between reads', () => {
  test('a partial line or pending event does not keep the whole decoded read alive', () => {
    const { heapStats } = require('bun:jsc') as typeof import('bun:jsc')
    const frame = `event: delta\ndata: {"text":"${'x'.repeat(400)}"}\n\n`
    // 64 KiB of whole events, then an event cut after its data line and a line cut in the middle.
    const read = new TextEncoder().encode(`${frame.repeat(Math.floor(65_536 / frame.length))}event: delta\ndata: {"a":1}\ndata: {"te`)
    const parsers: SseParser[] = []
    Bun.gc(true)
    const before = heapStats().extraMemorySize
    for (let i = 0; i < 200; i++) {
      const p = new SseParser()
      expect(p.push(read).length).toBe(Math.floor(65_536 / frame.length))
      parsers.push(p)
    }
    Bun.gc(true)
    const kept = heapStats().extraMemorySize - before
    // 200 reads of 64 KiB each: kept whole, that is 13 MB; what must be kept is a few bytes each.
    expect(kept).toBeLessThan(2 * 1024 * 1024)
    // And the pending event and cut line still complete correctly.
    expect(parsers[0]!.push(new TextEncoder().encode('xt":2}\n\n'))).toEqual([{ event: 'delta', data: '{"a":1}\n{"text":2}' }])
  })
})

import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { SseParser, type SseEvent } from '../../src/lib/sse/parse.ts'
import { FIXTURES_DIR, fixtureSse, type FixtureProtocol } from '../helpers/fixtures.ts'

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

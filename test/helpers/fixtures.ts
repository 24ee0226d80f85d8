// Recorded upstream responses kept in test/fixtures (see its MANIFEST.md for provenance).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures', import.meta.url))

export type FixtureProtocol = 'openai-chat' | 'anthropic-messages' | 'openai-responses'

export const fixtureText = (protocol: FixtureProtocol, file: string): string => readFileSync(`${FIXTURES_DIR}/${protocol}/${file}`, 'utf8')

export const fixtureJson = (protocol: FixtureProtocol, file: string): any => JSON.parse(fixtureText(protocol, file))

/**
 * A streaming fixture as the exact SSE bytes the upstream sent: `.sse` verbatim; `.chunks.jsonl`
 * reframed per the protocol's MANIFEST (chat: data lines + [DONE]; others: event + data lines).
 */
export function fixtureSse(protocol: FixtureProtocol, file: string): string {
  const text = fixtureText(protocol, file)
  if (file.endsWith('.sse')) return text
  const lines = text.split('\n').filter((l) => l.trim() !== '')
  if (protocol === 'openai-chat') return lines.map((l) => `data: ${l}\n\n`).join('') + 'data: [DONE]\n\n'
  return lines.map((l) => `event: ${JSON.parse(l).type}\ndata: ${l}\n\n`).join('')
}

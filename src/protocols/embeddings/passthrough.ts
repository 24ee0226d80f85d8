// An embeddings answer from an openai-chat gateway, made public without decoding its vectors
// (docs/api.md "Embeddings"): the top-level members are found by a scan (lib/json-members.ts),
// the `data` member is kept as it came — its bytes, spliced into the client's answer as they are
// — and every other (small) member is parsed. The client
// gets OpenAI's four members only — `object`, `data` as sent, `model` as the public slug, the
// upstream's `usage` — so no upstream identity (an id, a provider name) reaches it.
import { fromOpenAiChatUsage, type Usage } from '../../core/usage.ts'
import { RawJson, topLevelMembers } from '../../lib/json-members.ts'
import type { SplicedJson } from '../../lib/json-tokens.ts'

const decoder = new TextDecoder()

/**
 * The upstream's answer: `data` as RawJson (its bytes), the rest parsed; `text` is the bytes one
 * character each (latin1), the view the scan reads. A JSON structural character is one byte that
 * never occurs inside a multi-byte UTF-8 sequence, so the scan's offsets are the bytes' offsets
 * whatever the answer holds; the small members are decoded as UTF-8 from their own bytes.
 * Throws when the answer is not an embeddings list.
 */
export function readEmbeddingsAnswer(bytes: Uint8Array<ArrayBuffer>): { text: string; parsed: Record<string, unknown> } {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  const members = topLevelMembers(text)
  const data = members?.get('data')
  if (!members || !data || text.charCodeAt(data[0]) !== 91) throw new Error('the answer is not an embeddings list')
  const parsed: Record<string, unknown> = {}
  for (const [name, [start, end]] of members) {
    const own = bytes.subarray(start, end)
    parsed[name] = name === 'data' ? new RawJson(own) : JSON.parse(decoder.decode(own))
  }
  return { text, parsed }
}

/** The public answer and the usage it reported (an embedding has no output: prompt tokens only). */
export function publicEmbeddings(parsed: Record<string, unknown>, slug: string): { body: string | SplicedJson; usage: Usage | undefined } {
  const head = '{"object":"list","data":'
  const tail = `,"model":${JSON.stringify(slug)}${parsed.usage === undefined ? '' : `,"usage":${JSON.stringify(parsed.usage)}`}}`
  const usage = fromOpenAiChatUsage(parsed.usage)
  const data = parsed.data
  if (data instanceof RawJson) return { body: { head, raw: data.bytes, tail }, usage }
  return { body: `${head}${JSON.stringify(data ?? [])}${tail}`, usage }
}

// An embeddings answer from an openai-chat gateway, made public without decoding its vectors
// (docs/api.md "Embeddings"): the top-level members are found by a scan (lib/json-members.ts),
// the `data` member is kept as its exact text and every other (small) member is parsed. The
// client gets OpenAI's four members only — `object`, `data` as sent, `model` as the public slug,
// the upstream's `usage` — so no upstream identity (an id, a provider name) reaches it.
import { fromOpenAiChatUsage, type Usage } from '../../core/usage.ts'
import { RawJson, topLevelMembers } from '../../lib/json-members.ts'

/** The upstream's answer: `data` as RawJson, the rest parsed. Throws when it is not an embeddings list. */
export function readEmbeddingsAnswer(text: string): Record<string, unknown> {
  const members = topLevelMembers(text)
  const data = members?.get('data')
  if (!members || !data?.startsWith('[')) throw new Error('the answer is not an embeddings list')
  const out: Record<string, unknown> = {}
  for (const [name, json] of members) out[name] = name === 'data' ? new RawJson(json) : JSON.parse(json)
  return out
}

/** The public answer and the usage it reported (an embedding has no output: prompt tokens only). */
export function publicEmbeddings(parsed: Record<string, unknown>, slug: string): { body: string; usage: Usage | undefined } {
  const data = parsed.data instanceof RawJson ? parsed.data.json : JSON.stringify(parsed.data ?? [])
  const usage = parsed.usage === undefined ? '' : `,"usage":${JSON.stringify(parsed.usage)}`
  return { body: `{"object":"list","data":${data},"model":${JSON.stringify(slug)}${usage}}`, usage: fromOpenAiChatUsage(parsed.usage) }
}

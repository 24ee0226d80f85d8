// What makes calls share a provider prompt cache (docs/failover.md "Warm prompt caches"): the
// same API key and model, and either the same explicit `prompt_cache_key` or the same leading
// tools, system and messages up to the last cache breakpoint (`cache_control`). Calls with
// neither have no prefix to keep warm. Works on the client's body as sent, for every protocol:
// chat (`tools`, `messages`), messages (`tools`, `system`, `messages`), responses (`tools`,
// `instructions`, `input`).
import { sha256Hex } from '../lib/ids.ts'

/** The body's prompt in the order providers cache it: tools, then system, then the conversation. */
function segments(raw: Record<string, unknown>): unknown[] {
  const out: unknown[] = []
  for (const field of ['tools', 'system', 'instructions', 'messages', 'input']) {
    const v = raw[field]
    if (Array.isArray(v)) out.push(...v)
    else if (v !== undefined) out.push(v)
  }
  return out
}

/** A stable key for the call's cache prefix, or undefined when it declares none. */
export function cachePrefixKey(raw: Record<string, unknown>, keyId: string, model: string): string | undefined {
  const head = `${keyId}\n${model}\n`
  if (typeof raw.prompt_cache_key === 'string' && raw.prompt_cache_key.length > 0) return sha256Hex(`${head}key\n${raw.prompt_cache_key}`)
  const parts = segments(raw).map((s) => JSON.stringify(s))
  const last = parts.findLastIndex((p) => p.includes('"cache_control"'))
  if (last === -1) return undefined
  return sha256Hex(`${head}prefix\n${parts.slice(0, last + 1).join('\n')}`)
}

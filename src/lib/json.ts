// Tool arguments cross as JSON text (OpenAI) ↔ objects (Anthropic): unparsable text becomes
// {} rather than failing the whole answer.
export function safeJsonObject(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text || '{}')
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {}
  } catch {
    return {}
  }
}

/** An array field of unchecked JSON, or [] when it is missing or not an array. */
export const asList = <T>(v: T[] | null | undefined): T[] => (Array.isArray(v) ? v : [])

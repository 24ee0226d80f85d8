// The size of a prompt in characters, the basis of the reservation estimate and count_tokens.
// Inline media (base64 images, PDFs, data URLs) is not text: counting its bytes as characters
// would reserve hundreds of thousands of tokens for one photo, so a blob counts as a fixed
// image-sized amount plus a small share of its length.

const BLOB_MIN = 2_048
/** ≈1,600 tokens, the largest image the vendors bill at ~4 characters per token. */
const BLOB_BASE = 6_400
const BLOB_SHARE = 64

const isBlob = (s: string): boolean => s.length >= BLOB_MIN && (s.startsWith('data:') || /^[A-Za-z0-9+/=_-]+$/.test(s.slice(0, 256)))

function size(v: unknown): number {
  if (typeof v === 'string') return isBlob(v) ? BLOB_BASE + Math.ceil(v.length / BLOB_SHARE) : v.length + 2
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + size(x) + 1, 2)
  if (v && typeof v === 'object') {
    let n = 2
    for (const [k, x] of Object.entries(v)) n += k.length + 4 + size(x)
    return n
  }
  return v === undefined ? 0 : String(v).length
}

/** Characters of the prompt-bearing members of a request body. */
export function promptChars(body: Record<string, unknown>, members: readonly string[] = ['messages', 'system', 'tools']): number {
  let n = 0
  for (const m of members) n += size(body[m])
  return n
}

// Identifiers: random base62 text from the platform CSPRNG.
//
// Ids are minted on every request, so the randomness is drawn in blocks: one getRandomValues call
// fills a pool that serves many ids, and every byte of it is used once. Characters come from a
// precomputed table and are written into a byte buffer decoded once, instead of a fresh typed
// array and a string concatenation per character
// (docs/benchmarks-log.md "Where the time goes outside the pipeline").

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** Bytes below 248 = 4 × 62 map evenly onto the alphabet; larger ones are rejected (no bias). */
const ACCEPT_BELOW = 248
const CHAR_CODE = Uint8Array.from({ length: ACCEPT_BELOW }, (_, b) => ALPHABET.charCodeAt(b % 62))

const POOL_BYTES = 4096
const pool = new Uint8Array(POOL_BYTES)
let poolAt = POOL_BYTES

function randomByte(): number {
  if (poolAt === POOL_BYTES) {
    crypto.getRandomValues(pool)
    poolAt = 0
  }
  return pool[poolAt++]!
}

const ascii = new TextDecoder('latin1')
const scratch = new Uint8Array(64)

/** `length` base62 characters, unbiased (rejection sampling over bytes < 248). */
export function base62(length: number): string {
  const out = length <= scratch.length ? scratch : new Uint8Array(length)
  let n = 0
  while (n < length) {
    const b = randomByte()
    if (b < ACCEPT_BELOW) out[n++] = CHAR_CODE[b]!
  }
  return ascii.decode(out.subarray(0, length))
}

/** Request ids: `req_` on chat/messages, `resp_` on the responses protocol (docs/observability.md). */
export const newRequestId = (prefix = 'req'): string => `${prefix}_${base62(24)}`

/** SHA-256 as lowercase hex (the one-shot hasher: no hasher object per call). */
export const sha256Hex = (text: string): string => Bun.SHA256.hash(text, 'hex')

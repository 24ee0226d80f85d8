// Identifiers: random base62 text from the platform CSPRNG.

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** `length` base62 characters, unbiased (rejection sampling over bytes < 248). */
export function base62(length: number): string {
  let out = ''
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2))
    for (const b of bytes) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62]
    }
  }
  return out
}

/** Request ids: `req_` on chat/messages, `resp_` on the responses protocol (docs/api.md "Request ids"). */
export const newRequestId = (prefix = 'req'): string => `${prefix}_${base62(24)}`

export function sha256Hex(text: string): string {
  return new Bun.CryptoHasher('sha256').update(text).digest('hex')
}

// Request bodies, the one limit for every surface (docs/security.md "Limits"): MAX_BODY_BYTES,
// answered 413 in the surface's envelope. Bun's own maxRequestBodySize is set far above it
// (index.ts) so Bun never answers its bare 413; the limit is enforced here while reading, so a
// chunked upload without Content-Length is cut off at the limit, not buffered whole.
import { GatewayError } from '../core/errors.ts'
import { MAX_DEPTH, mayHoldUnsafeEscape, unsafeTextPath } from '../lib/safe-text.ts'

/** The body as text, at most `maxBytes` of it; 413 PAYLOAD_TOO_LARGE beyond. */
export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  const length = req.headers.get('content-length')
  if (length !== null) {
    // A declared length binds the body (Bun reads exactly that many bytes): the native read is
    // safe and by far the fastest. Only a body without one is read piecewise against the limit.
    if (!/^\d+$/.test(length)) throw new GatewayError('BAD_REQUEST', 'Content-Length is not a number.')
    if (Number(length) > maxBytes) throw tooLarge(maxBytes)
    return req.text()
  }
  if (!req.body) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = req.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw tooLarge(maxBytes)
    }
    chunks.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}

/** Parses JSON text and applies the safe-text rule (lib/safe-text.ts); 400 naming the path. */
export function parseJsonText(text: string): unknown {
  if (text.length === 0) throw new GatewayError('BAD_REQUEST', 'The request body is empty; send a JSON object.')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new GatewayError('BAD_REQUEST', 'The request body is not valid JSON.')
  }
  const bad = mayHoldUnsafeEscape(text) || deepCandidate(text) ? unsafeTextPath(value) : undefined
  if (bad) throw unsafeText(bad)
  return value
}

export async function readJsonBody(req: Request, maxBytes: number): Promise<unknown> {
  return parseJsonText(await readBodyText(req, maxBytes))
}

export const unsafeText = (path: string) =>
  new GatewayError(
    'BAD_REQUEST',
    `${path}: text must not contain NUL or unpaired surrogates, and JSON must not nest deeper than ${MAX_DEPTH} levels.`,
    { param: path },
  )

/** Enough opening braces that the nesting might exceed MAX_DEPTH (a small body needs no walk). */
function deepCandidate(text: string): boolean {
  let n = 0
  for (const open of ['{', '[']) for (let i = text.indexOf(open); i !== -1 && n <= MAX_DEPTH; i = text.indexOf(open, i + 1)) n++
  return n > MAX_DEPTH
}

const tooLarge = (max: number) => new GatewayError('PAYLOAD_TOO_LARGE', `The request body exceeds the ${Math.floor(max / 1024)} KiB limit.`)

// The one rule for text arriving from a client (docs/security.md "Input"): no NUL and no lone
// UTF-16 surrogate anywhere — in a body's strings or member names, a query or a path parameter.
// Postgres text cannot hold NUL, and a lone surrogate has no UTF-8 form, so either would fail
// (or be silently altered) far from the edge. Nesting is bounded so no walk or serializer
// downstream can run out of stack.

export const MAX_DEPTH = 128

export const isSafeText = (s: string): boolean => !s.includes('\0') && s.isWellFormed()

/**
 * The dotted path of the first unsafe string or member name in `value`, `body` when it nests
 * deeper than MAX_DEPTH, or undefined when it is clean. Iterative: a hostile depth costs no stack.
 */
export function unsafeTextPath(value: unknown, root = 'body'): string | undefined {
  const stack: [unknown, string, number][] = [[value, root, 0]]
  while (stack.length > 0) {
    const [v, path, depth] = stack.pop()!
    if (typeof v === 'string') {
      if (!isSafeText(v)) return path
      continue
    }
    if (v === null || typeof v !== 'object') continue
    if (depth >= MAX_DEPTH) return root
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`, depth + 1])
      continue
    }
    for (const k of Object.keys(v)) {
      if (!isSafeText(k)) return path
      stack.push([(v as Record<string, unknown>)[k], `${path}.${k}`, depth + 1])
    }
  }
  return undefined
}

/** Cheap pre-check on raw JSON text: only an escape can put NUL or a surrogate into a string
 *  (req.text() already replaced invalid UTF-8), so text without one needs no walk for them. */
export const mayHoldUnsafeEscape = (json: string): boolean => /\\u(?:0000|d[89a-f])/i.test(json)

// Text bound for Postgres (docs/operations.md "Ledger writer"): defence in depth behind the edge
// rule above — one value Postgres refuses would otherwise fail a whole ledger batch.

const REPLACEMENT = '\uFFFD'

/** A string iterator yields a lone surrogate as a one-unit string of its own. */
const isLoneSurrogate = (ch: string) => ch.length === 1 && ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) <= 0xdfff

/** `s` with each NUL and lone surrogate replaced by what `mend` returns for it. */
function mendText(s: string, mend: (ch: string) => string): string {
  let out = ''
  for (const ch of s) out += ch === '\0' || isLoneSurrogate(ch) ? mend(ch) : ch
  return out
}

/**
 * `s` with NUL removed, each unpaired surrogate replaced by U+FFFD, and cut to at most
 * `maxCodePoints` code points — never inside a surrogate pair.
 */
export function safeText(s: string, maxCodePoints = Infinity): string {
  const out = isSafeText(s) ? s : mendText(s, (ch) => (ch === '\0' ? '' : REPLACEMENT))
  if (out.length <= maxCodePoints) return out
  let cut = 0
  let points = 0
  for (const ch of out) {
    if (points++ >= maxCodePoints) break
    cut += ch.length
  }
  return out.slice(0, cut)
}

/**
 * A reversible, printable form of arbitrary text for audit columns: NUL and unpaired
 * surrogates become the six characters `\u0000` / `\udXXX`, so nothing is lost or rejected.
 */
export function escapeForText(s: string): string {
  return isSafeText(s) ? s : mendText(s, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

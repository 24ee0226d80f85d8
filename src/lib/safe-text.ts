// Text bound for Postgres (docs/operations.md "Ledger writer"): Postgres text and jsonb reject
// NUL (U+0000) and unpaired UTF-16 surrogates, and one such value would fail a whole batch.

const REPLACEMENT = '\uFFFD'

/** True when `s` has a NUL or an unpaired surrogate (fast path: most text is clean). */
function needsRepair(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 0) return true
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1)
        if (d >= 0xdc00 && d <= 0xdfff) {
          i++
          continue
        }
      }
      return true
    }
  }
  return false
}

/**
 * `s` with NUL removed, each unpaired surrogate replaced by U+FFFD, and cut to at most
 * `maxCodePoints` code points — never inside a surrogate pair.
 */
export function safeText(s: string, maxCodePoints = Infinity): string {
  let out = s
  if (needsRepair(s)) {
    out = ''
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i)
      if (c === 0) continue
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1)
        if (d >= 0xdc00 && d <= 0xdfff) {
          out += s[i]! + s[i + 1]!
          i++
          continue
        }
      }
      out += c >= 0xd800 && c <= 0xdfff ? REPLACEMENT : s[i]!
    }
  }
  if (out.length <= maxCodePoints) return out
  let cut = 0
  let points = 0
  while (cut < out.length && points < maxCodePoints) {
    const c = out.charCodeAt(cut)
    cut += c >= 0xd800 && c <= 0xdbff ? 2 : 1
    points++
  }
  return out.slice(0, cut)
}

/**
 * A reversible, printable form of arbitrary text for audit columns: NUL and unpaired
 * surrogates become the six characters `\u0000` / `\udXXX`, so nothing is lost or rejected.
 */
export function escapeForText(s: string): string {
  if (!needsRepair(s)) return s
  let out = ''
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i]! + s[i + 1]!
        i++
        continue
      }
    }
    out += c === 0 || (c >= 0xd800 && c <= 0xdfff) ? `\\u${c.toString(16).padStart(4, '0')}` : s[i]!
  }
  return out
}

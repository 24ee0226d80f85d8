// The top-level members of a serialized JSON object, read without parsing their values: each
// value is handed back as its exact source text, so a large member (an embeddings answer's
// vectors) passes on byte for byte, never decoded into numbers and encoded again. The scan
// checks the object's structure (strings closed, brackets balanced); scalars are checked by
// whoever parses them.

/** A member's value kept as its source text, to be written back verbatim. */
export class RawJson {
  constructor(readonly json: string) {}
}

const QUOTE = 34
const STRUCTURAL = /["[\]{}]/g
const BACKSLASH = 92
const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++
  return i
}

/** The index after the string opening at `i`, or -1 when it never closes. */
function stringEnd(text: string, i: number): number {
  let q = text.indexOf('"', i + 1)
  while (q !== -1) {
    let slashes = 0
    while (text.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes++
    if (slashes % 2 === 0) return q + 1
    q = text.indexOf('"', q + 1)
  }
  return -1
}

/** The index after the value starting at `i` (an object or array with balanced brackets), or -1. */
function valueEnd(text: string, i: number): number {
  const first = text.charCodeAt(i)
  if (first === QUOTE) return stringEnd(text, i)
  if (first !== 123 && first !== 91) {
    let j = i
    while (j < text.length && !',}]'.includes(text[j]!) && !isSpace(text.charCodeAt(j))) j++
    return j > i ? j : -1
  }
  // From one structural character to the next in the regex engine's native scan: numbers and
  // base64 between them are never visited one character at a time.
  let depth = 0
  STRUCTURAL.lastIndex = i
  while (STRUCTURAL.test(text)) {
    const j = STRUCTURAL.lastIndex - 1
    const c = text.charCodeAt(j)
    if (c === QUOTE) {
      const end = stringEnd(text, j)
      if (end < 0) return -1
      STRUCTURAL.lastIndex = end
    } else if (c === 123 || c === 91) depth++
    else if (--depth === 0) return j + 1
  }
  return -1
}

/** Each top-level member's name and value text, in order; undefined when `text` is not one well-formed object. */
export function topLevelMembers(text: string): Map<string, string> | undefined {
  const members = new Map<string, string>()
  let i = skipSpace(text, 0)
  if (text[i] !== '{') return undefined
  i = skipSpace(text, i + 1)
  if (text[i] === '}') return skipSpace(text, i + 1) === text.length ? members : undefined
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined
    const nameEnd = stringEnd(text, i)
    if (nameEnd < 0) return undefined
    const name = JSON.parse(text.slice(i, nameEnd)) as string
    i = skipSpace(text, nameEnd)
    if (text[i] !== ':') return undefined
    i = skipSpace(text, i + 1)
    const end = valueEnd(text, i)
    if (end < 0) return undefined
    members.set(name, text.slice(i, end))
    i = skipSpace(text, end)
    if (text[i] === '}') return skipSpace(text, i + 1) === text.length ? members : undefined
    if (text[i] !== ',') return undefined
    i = skipSpace(text, i + 1)
  }
}

// TypeBox validation with the gateway's issue list: compiled once per schema, paths in the
// dotted form SDK users know (messages[0].role).
import type { TSchema, Static } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'

export interface Issue {
  path: string
  message: string
}

export function jsonPointerToPath(pointer: string): string {
  if (pointer === '') return 'body'
  return pointer
    .slice(1)
    .split('/')
    .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : (i === 0 ? '' : '.') + seg.replace(/~1/g, '/').replace(/~0/g, '~')))
    .join('')
}

export function compile<T extends TSchema>(schema: T) {
  const check = TypeCompiler.Compile(schema)
  return (value: unknown): { ok: true; value: Static<T> } | { ok: false; issues: Issue[] } => {
    if (check.Check(value)) return { ok: true, value: value as Static<T> }
    const issues: Issue[] = []
    const seen = new Set<string>()
    for (const e of check.Errors(value)) {
      const path = jsonPointerToPath(e.path)
      // A union reports each branch; the first message per path is the clearest.
      if (seen.has(path)) continue
      seen.add(path)
      issues.push({ path, message: e.message })
      if (issues.length >= 10) break
    }
    return { ok: false, issues }
  }
}

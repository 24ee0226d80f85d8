// TypeBox validation with the gateway's issue list: compiled once per schema, paths in the
// dotted form SDK users know (messages[0].role), and messages that say what was meant: an
// unknown member names itself and the known one it is closest to (`apikey: unknown field; did
// you mean apiKey?`), a union names its allowed values (`role: must be one of user, assistant`).
import { Kind, type Static, type TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors'
import { closestName } from './closest-name.ts'

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
      const issue = describeError(e)
      // One issue per path: the first is the clearest.
      if (seen.has(issue.path)) continue
      seen.add(issue.path)
      issues.push(issue)
      if (issues.length >= 10) break
    }
    return { ok: false, issues: nameNearMisses(issues) }
  }
}

/**
 * A required member reported missing while an unknown one beside it is its near miss (`pricng`
 * for `pricing`): one issue naming both, in the missing member's place.
 */
export function nameNearMisses(issues: Issue[]): Issue[] {
  const misspelt = new Map<string, Issue>()
  for (const i of issues) {
    const meant = /did you mean (.+)\?$/.exec(i.message)?.[1]
    if (meant && i.message.startsWith('unknown field')) misspelt.set(`${parentOf(i.path)}|${meant}`, i)
  }
  const used = new Set<Issue>()
  const out: Issue[] = []
  for (const i of issues) {
    if (used.has(i)) continue
    const name = lastName(i.path)
    const near = i.message === 'Expected required property' ? misspelt.get(`${parentOf(i.path)}|${name}`) : undefined
    if (near) {
      used.add(near)
      out.push({ path: i.path, message: `Expected required property; found ${lastName(near.path)}: did you mean ${name}?` })
    } else out.push(i)
  }
  return out
}

const parentOf = (path: string) => path.replace(/(\.?[^.[\]]+|\[\d+\])$/, '')
const lastName = (path: string) => /[^.[\]]+$/.exec(path)?.[0] ?? path

/** One TypeBox error as an issue; a union error descends into the one branch the value's type fits. */
export function describeError(e: ValueError): Issue {
  if (e.type === ValueErrorType.ObjectAdditionalProperties) {
    const name = e.path
      .slice(e.path.lastIndexOf('/') + 1)
      .replace(/~1/g, '/')
      .replace(/~0/g, '~')
    const meant = closestName(name, Object.keys((e.schema as { properties?: object }).properties ?? {}))
    return { path: jsonPointerToPath(e.path), message: `unknown field${meant ? `; did you mean ${meant}?` : ''}` }
  }
  if (e.type === ValueErrorType.Union) {
    const branches = (e.schema as { anyOf?: TSchema[] }).anyOf ?? []
    const fitting = branches.flatMap((b, i) => (fits(b, e.value) ? [i] : []))
    const inner = fitting.length === 1 ? e.errors[fitting[0]!]?.First() : undefined
    if (inner) return describeError(inner)
    return { path: jsonPointerToPath(e.path), message: oneOf(branches) }
  }
  if (e.type === ValueErrorType.Literal) return { path: jsonPointerToPath(e.path), message: `must be ${String(e.schema.const)}` }
  return { path: jsonPointerToPath(e.path), message: e.message }
}

/** `must be one of a, b, c` for literals; `must be a string, an array or null` otherwise. */
function oneOf(branches: TSchema[]): string {
  if (branches.every((b) => b.const !== undefined)) return `must be one of ${branches.map((b) => String(b.const)).join(', ')}`
  const names = [...new Set(branches.map(typeName))]
  return `must be ${names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]}`
}

const ARTICLE: Record<string, string> = {
  String: 'a string',
  Number: 'a number',
  Integer: 'an integer',
  Boolean: 'a boolean',
  Null: 'null',
  Array: 'an array',
  Object: 'an object',
}
const typeName = (s: TSchema) => (s.const !== undefined ? JSON.stringify(s.const) : (ARTICLE[s[Kind]] ?? 'another value'))

/** Whether `value` is of the JSON type `branch` expects (not whether it is valid there). */
function fits(branch: TSchema, value: unknown): boolean {
  if (branch.const !== undefined) return false
  switch (branch[Kind]) {
    case 'String':
      return typeof value === 'string'
    case 'Number':
    case 'Integer':
      return typeof value === 'number'
    case 'Boolean':
      return typeof value === 'boolean'
    case 'Null':
      return value === null
    case 'Array':
      return Array.isArray(value)
    case 'Object':
      return value !== null && typeof value === 'object' && !Array.isArray(value)
    case 'Union': // a nested union (Elysia's t.Integer: an integer, or a string of one)
      return ((branch as { anyOf?: TSchema[] }).anyOf ?? []).some((b) => fits(b, value))
    default:
      return false
  }
}

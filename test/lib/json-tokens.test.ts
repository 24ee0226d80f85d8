// appendMemberJson: the member goes last, after a comma unless the object is empty, whatever
// whitespace the serializer left before the closing brace.
import { describe, expect, test } from 'bun:test'
import { appendMemberJson } from '../../src/lib/json-tokens.ts'

describe('appendMemberJson', () => {
  test.each([
    ['{"a":1}', '{"a":1,"svc":{"x":2}}'],
    ['{}', '{"svc":{"x":2}}'],
    ['{ }', '{"svc":{"x":2}}'],
    ['{\n  "a": [1, {}]\n}\n', '{\n  "a": [1, {}],"svc":{"x":2}}'],
    ['{"a":{}}', '{"a":{},"svc":{"x":2}}'],
  ])('%j', (json, want) => {
    const out = appendMemberJson(json, 'svc', '{"x":2}')
    expect(out).toBe(want)
    expect(JSON.parse(out).svc).toEqual({ x: 2 })
  })
})

import { describe, expect, test } from 'bun:test'
import { Type as t } from '@sinclair/typebox'
import { strictSchema } from '../../src/lib/strict-schema.ts'
import { compile } from '../../src/lib/validate.ts'

const issues = (check: ReturnType<typeof compile>, value: unknown) => {
  const r = check(value)
  if (r.ok) throw new Error('expected issues')
  return r.issues
}

describe('validate', () => {
  const Gateway = t.Object({
    protocol: t.Union([t.Literal('openai-chat'), t.Literal('anthropic-messages'), t.Literal('openai-responses')]),
    apiKey: t.Optional(t.String()),
    retries: t.Optional(t.Union([t.Integer({ minimum: 0 }), t.Null()])),
    content: t.Optional(t.Union([t.String(), t.Array(t.Object({ type: t.String() })), t.Null()])),
  })
  const strict = compile(strictSchema(t.Object({ gateways: t.Array(Gateway) })))
  const loose = compile(t.Object({ gateways: t.Array(Gateway) }))

  test('an unknown member of a strict schema is named, with the member meant when one is close', () => {
    expect(issues(strict, { gateways: [{ protocol: 'openai-chat', apikey: 'env:K' }] })).toEqual([
      { path: 'gateways[0].apikey', message: 'unknown field; did you mean apiKey?' },
    ])
    expect(issues(strict, { gateways: [], colour: 'red' })).toEqual([{ path: 'colour', message: 'unknown field' }])
    // A loose schema lets it through.
    expect(loose({ gateways: [{ protocol: 'openai-chat', apikey: 'env:K' }] }).ok).toBe(true)
  })

  test('a union of literals names its allowed values', () => {
    expect(issues(strict, { gateways: [{ protocol: 'openai' }] })).toEqual([
      { path: 'gateways[0].protocol', message: 'must be one of openai-chat, anthropic-messages, openai-responses' },
    ])
  })

  test('a union of types names them, or the error inside the one branch the value fits', () => {
    expect(issues(strict, { gateways: [{ protocol: 'openai-chat', retries: 'two', content: 5 }] })).toEqual([
      { path: 'gateways[0].retries', message: 'must be an integer or null' },
      { path: 'gateways[0].content', message: 'must be a string, an array or null' },
    ])
    const [inner] = issues(strict, { gateways: [{ protocol: 'openai-chat', retries: -1, content: [{}] }] })
    expect(inner!.path).toBe('gateways[0].retries')
    expect(inner!.message).toContain('greater or equal to 0')
    expect(issues(strict, { gateways: [{ protocol: 'openai-chat', content: [{}] }] })[0]!.path).toBe('gateways[0].content[0].type')
  })

  test('the body itself is named "body"; one issue per path', () => {
    expect(issues(strict, 'text')[0]!.path).toBe('body')
    const many = issues(strict, { gateways: [{ protocol: 'x', apikey: 1 }, { protocol: 'y' }] })
    expect(many.map((i) => i.path)).toEqual(['gateways[0].apikey', 'gateways[0].protocol', 'gateways[1].protocol'])
  })
})

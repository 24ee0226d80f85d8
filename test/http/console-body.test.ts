// Console/admin body intake (docs/security.md "Input"): JSON objects only, no prototype-polluting
// member names, the safe-text rule over body, query and path parameters, and the size limit.
import { describe, expect, test } from 'bun:test'
import { GatewayError } from '../../src/core/errors.ts'
import { checkParams, consoleBody } from '../../src/http/console-body.ts'

const post = (body: string, contentType = 'application/json') =>
  new Request('http://gw.test/api/keys', { method: 'POST', headers: { 'content-type': contentType }, body })

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(GatewayError)
  const g = err as GatewayError
  return { status: g.status, code: g.code, message: g.message }
}

describe('consoleBody', () => {
  test('a JSON object is returned as parsed', async () => {
    expect(await consoleBody(post('{"name":"ci","limit":{"usd":"5"}}'), 'application/json', 1024)).toEqual({
      name: 'ci',
      limit: { usd: '5' },
    })
  })

  test('an empty or blank body is {} whatever its type (a form button)', async () => {
    expect(await consoleBody(post(''), 'application/x-www-form-urlencoded', 1024)).toEqual({})
    expect(await consoleBody(post('  \n'), 'application/json', 1024)).toEqual({})
  })

  test.each(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'])(
    'a filled %s body is refused 415, never parsed',
    async (type) => {
      expect(await refusal(consoleBody(post('{"name":"x"}', type), type, 1024))).toEqual({
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Send the body as application/json.',
      })
    },
  )

  test.each(['null', '[]', '1', '"x"', 'true'])('a top-level %s is 422 VALIDATION_FAILED', async (body) => {
    expect(await refusal(consoleBody(post(body), 'application/json', 1024))).toEqual({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: 'body: must be a JSON object.',
    })
  })

  test('invalid JSON is 400', async () => {
    expect((await refusal(consoleBody(post('{"a":'), 'application/json', 1024))).status).toBe(400)
  })

  test.each([
    ['{"__proto__":{"admin":true}}', 'body.__proto__'],
    ['{"a":{"b":[{"constructor":{}}]}}', 'body.a.b.0.constructor'],
    ['{"x":1,"prototype":2}', 'body.prototype'],
  ])('a polluting member name in %s is refused, naming its path', async (body, path) => {
    expect(await refusal(consoleBody(post(body), 'application/json', 1024))).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      message: `${path}: a member of this name is not accepted.`,
    })
  })

  test('a body over the limit is 413', async () => {
    expect((await refusal(consoleBody(post(JSON.stringify({ pad: 'x'.repeat(2048) })), 'application/json', 1024))).status).toBe(413)
  })

  test('a NUL in a string is refused 400', async () => {
    expect((await refusal(consoleBody(post('{"name":"a\\u0000b"}'), 'application/json', 1024))).status).toBe(400)
  })
})

describe('checkParams', () => {
  test('safe text passes', () => {
    expect(() => checkParams({ q: 'abc', tags: ['a', 'b'], n: 3 }, { id: 'key_123' })).not.toThrow()
  })

  test('a NUL in a query value names the query member', () => {
    const err = (() => {
      try {
        checkParams({ search: 'a\u0000' }, {})
      } catch (e) {
        return e as GatewayError
      }
    })()
    expect(err?.status).toBe(400)
    expect(err?.extra.param).toBe('search')
  })

  test('an unpaired surrogate in a path parameter names it as :name; one in a repeated query value is found too', () => {
    const caught = (fn: () => void) => {
      try {
        fn()
      } catch (e) {
        return (e as GatewayError).extra.param
      }
    }
    expect(caught(() => checkParams({}, { id: 'x\uD800' }))).toBe(':id')
    expect(caught(() => checkParams({ tag: ['ok', '\uDFFFz'] }, {}))).toBe('tag')
  })
})

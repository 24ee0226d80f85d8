// The console's API client with a stand-in fetch: same-origin JSON, the API's error envelope as
// an ApiError, a 401 outside /api/auth/ signing the person out, 429 in plain words, and an
// unreachable server as a NETWORK error.
import { afterEach, describe, expect, test } from 'bun:test'
import { api, ApiError, qs, whenSignedOut } from '../../../src/console-ui/client/api.ts'

const realFetch = globalThis.fetch
afterEach(() => {
  globalThis.fetch = realFetch
  whenSignedOut(() => {})
})

function answer(status: number, body: unknown) {
  const seen: { url: string; init: RequestInit }[] = []
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, init })
    return new Response(body === undefined ? 'not json' : JSON.stringify(body), { status })
  }) as unknown as typeof fetch
  return seen
}

const failure = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(ApiError)
  const a = e as ApiError
  return { status: a.status, code: a.code, message: a.message }
}

describe('api', () => {
  test('a GET asks for JSON with the cookie and returns the body', async () => {
    const seen = answer(200, { balance: 1 })
    expect(await api('/api/wallet/account')).toEqual({ balance: 1 })
    expect(seen[0]!.url).toBe('/api/wallet/account')
    expect(seen[0]!.init).toMatchObject({ method: 'GET', credentials: 'same-origin', headers: { accept: 'application/json' } })
    expect(seen[0]!.init.body).toBeUndefined()
  })

  test('a body is sent as JSON with its content type', async () => {
    const seen = answer(201, { id: 'key_1' })
    await api('/api/keys', { method: 'POST', body: { name: 'ci' } })
    expect(seen[0]!.init).toMatchObject({ method: 'POST', body: '{"name":"ci"}', headers: { 'content-type': 'application/json' } })
  })

  test('an error answer becomes an ApiError with the envelope’s code and message', async () => {
    answer(422, { error: { code: 'VALIDATION_FAILED', message: 'amount: must be at least 5' } })
    expect(await failure(api('/api/topup', { method: 'POST', body: {} }))).toEqual({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: 'amount: must be at least 5',
    })
  })

  test('an error without an envelope still says what happened', async () => {
    answer(502, undefined)
    expect(await failure(api('/api/x'))).toEqual({ status: 502, code: 'ERROR', message: 'The server answered 502.' })
  })

  test('a 401 signs the person out, except on the sign-in calls themselves', async () => {
    let signedOut = 0
    whenSignedOut(() => signedOut++)
    answer(401, { error: { code: 'UNAUTHORIZED', message: 'Sign in.' } })
    await failure(api('/api/keys'))
    expect(signedOut).toBe(1)
    await failure(api('/api/auth/signin', { method: 'POST', body: {} }))
    expect(signedOut).toBe(1)
  })

  test('a 429 is said in plain words, keeping its code', async () => {
    answer(429, { error: { code: 'RATE_LIMITED', message: 'rate limited' } })
    expect(await failure(api('/api/auth/signin'))).toEqual({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Too many requests from this address; wait a minute and try again.',
    })
  })

  test('an unreachable server is a NETWORK error with status 0', async () => {
    globalThis.fetch = (async () => {
      throw new TypeError('Failed to fetch')
    }) as unknown as typeof fetch
    expect(await failure(api('/api/keys'))).toMatchObject({ status: 0, code: 'NETWORK' })
  })
})

describe('qs', () => {
  test('only set values, encoded; nothing set is no query at all', () => {
    expect(qs({ model: 'a/b c', limit: 20, cursor: null, key: undefined, q: '' })).toBe('?model=a%2Fb+c&limit=20')
    expect(qs({ a: null, b: '' })).toBe('')
    expect(qs({ zero: 0 })).toBe('?zero=0')
  })
})

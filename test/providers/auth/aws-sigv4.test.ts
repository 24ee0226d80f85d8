// The SigV4 auth against AWS's published test vectors (test/fixtures/aws-sigv4), and the test
// suite's own verifier (test/helpers/sigv4.ts) against the same vectors — so the fake Bedrock's
// check is known right independently of the signer. Then the credential chain: the environment,
// container credentials, IMDSv2, each answered by a local fake, refreshed before expiry.
import { describe, expect, test } from 'bun:test'
import { awsSigV4Auth } from '../../../src/providers/auth/aws-sigv4.ts'
import type { ChainDeps } from '../../../src/providers/auth/aws-credentials.ts'
import { verifySigV4 } from '../../helpers/sigv4.ts'
import suite from '../../fixtures/aws-sigv4/post-vectors.json'

interface Vector {
  name: string
  path: string
  query: Record<string, string>
  headers: Record<string, string>
  body: string
  authorization: string
  sessionToken?: string
}
const vectors = suite as unknown as Omit<typeof suite, 'cases'> & { cases: Vector[] }

const queryString = (q: Record<string, string>) =>
  Object.entries(q)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&')

const noChain: ChainDeps = {
  env: () => undefined,
  fetch: () => Promise.reject(new Error('no network in this test')),
  readFile: () => Promise.reject(new Error('no files in this test')),
  now: () => Date.parse(vectors.signingDate),
}

describe('SigV4 against the AWS test suite', () => {
  for (const c of vectors.cases) {
    const target = `${c.path}${Object.keys(c.query).length ? `?${queryString(c.query)}` : ''}`
    test(`signer: ${c.name}`, async () => {
      const auth = awsSigV4Auth(
        {
          region: vectors.region,
          accessKeyId: vectors.accessKeyId,
          secretAccessKey: vectors.secretAccessKey,
          sessionToken: c.sessionToken,
        },
        noChain,
        vectors.service,
      )
      const { host: _host, 'x-amz-date': _date, ...headers } = c.headers
      const result = await auth.authorize({ url: `https://${c.headers.host}${target}`, headers, body: c.body })
      if (!result.ok) throw new Error(result.detail)
      expect(result.headers.authorization).toBe(c.authorization)
      expect(result.headers['x-amz-date']).toBe('20150830T123600Z')
      // fetch sets these from the URL and body; the signed host equals the one it sends.
      expect(result.headers.host).toBeUndefined()
      if (c.sessionToken) expect(result.headers['x-amz-security-token']).toBe(c.sessionToken)
    })
    test(`verifier: ${c.name}`, () => {
      const headers: Record<string, string> = { ...c.headers, authorization: c.authorization }
      if (c.sessionToken) headers['x-amz-security-token'] = c.sessionToken
      const keys = { [vectors.accessKeyId]: vectors.secretAccessKey }
      expect(verifySigV4({ method: 'POST', target, headers, body: c.body }, keys, vectors.region, vectors.service).ok).toBe(true)
      // One byte of the body changed: the signature no longer holds.
      expect(verifySigV4({ method: 'POST', target, headers, body: `${c.body} ` }, keys, vectors.region, vectors.service)).toEqual({
        ok: false,
        why: 'signature mismatch',
      })
    })
  }
})

describe('the standard credential chain', () => {
  const keysJson = (id: string, expiresInMs: number, now: number) => ({
    AccessKeyId: id,
    SecretAccessKey: `secret-${id}`,
    Token: `token-${id}`,
    Expiration: new Date(now + expiresInMs).toISOString(),
  })

  function fakeAws(now: () => number) {
    const calls: { url: string; method: string; headers: Headers }[] = []
    let issued = 0
    const server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(req) {
        const url = new URL(req.url)
        calls.push({ url: url.pathname, method: req.method, headers: req.headers })
        if (url.pathname === '/latest/api/token' && req.method === 'PUT') return new Response('imds-session-token')
        if (req.headers.get('x-aws-ec2-metadata-token') !== null && req.headers.get('x-aws-ec2-metadata-token') !== 'imds-session-token')
          return new Response('', { status: 401 })
        if (url.pathname === '/latest/meta-data/iam/security-credentials/') return new Response('tollgate-role\n')
        if (url.pathname === '/latest/meta-data/iam/security-credentials/tollgate-role')
          return Response.json(keysJson(`IMDS${++issued}`, 3_600_000, now()))
        if (url.pathname === '/v2/credentials/task') {
          if (req.headers.get('authorization') !== null && req.headers.get('authorization') !== 'pod-identity-token')
            return new Response('', { status: 403 })
          return Response.json(keysJson(`ECS${++issued}`, 3_600_000, now()))
        }
        return new Response('', { status: 404 })
      },
    })
    return { url: `http://127.0.0.1:${server.port}`, calls, stop: () => server.stop(true) }
  }

  const sign = async (auth: ReturnType<typeof awsSigV4Auth>) => {
    const r = await auth.authorize({ url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/m/invoke', headers: {}, body: '{}' })
    if (!r.ok) throw new Error(r.detail)
    return r.headers
  }

  test('environment keys sign when the gateway names none', async () => {
    const env: Record<string, string> = {
      AWS_ACCESS_KEY_ID: 'AKIAENV',
      AWS_SECRET_ACCESS_KEY: 'env-secret',
      AWS_SESSION_TOKEN: 'env-token',
    }
    const auth = awsSigV4Auth({ region: 'us-east-1' }, { ...noChain, env: (n) => env[n], now: Date.now })
    const h = await sign(auth)
    expect(h.authorization).toContain('Credential=AKIAENV/')
    expect(h['x-amz-security-token']).toBe('env-token')
  })

  test('IMDSv2: a session token first, then the role and its keys; refreshed before they expire', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z')
    const aws = fakeAws(() => now)
    try {
      const env: Record<string, string> = { AWS_EC2_METADATA_SERVICE_ENDPOINT: aws.url }
      const auth = awsSigV4Auth({ region: 'us-east-1' }, { ...noChain, env: (n) => env[n], fetch: (u, i) => fetch(u, i), now: () => now })
      const [a, b, c] = await Promise.all([sign(auth), sign(auth), sign(auth)])
      // Three calls at once: one trip through the metadata service.
      expect(aws.calls.map((x) => `${x.method} ${x.url}`)).toEqual([
        'PUT /latest/api/token',
        'GET /latest/meta-data/iam/security-credentials/',
        'GET /latest/meta-data/iam/security-credentials/tollgate-role',
      ])
      for (const h of [a, b, c]) expect(h.authorization).toContain('Credential=IMDS1/')
      expect(a['x-amz-security-token']).toBe('token-IMDS1')
      now += 3_600_000 - 10_000 // ten seconds before expiry: too late to sign with, the call waits for new keys
      expect((await sign(auth)).authorization).toContain('Credential=IMDS2/')
      expect(aws.calls).toHaveLength(6)
    } finally {
      aws.stop()
    }
  })

  test('container credentials (EKS Pod Identity: full URI and a token file)', async () => {
    const aws = fakeAws(Date.now)
    try {
      const env: Record<string, string> = {
        AWS_CONTAINER_CREDENTIALS_FULL_URI: `${aws.url}/v2/credentials/task`,
        AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: '/var/run/secrets/pod-identity/token',
      }
      const files: Record<string, string> = { '/var/run/secrets/pod-identity/token': 'pod-identity-token\n' }
      const auth = awsSigV4Auth(
        { region: 'us-east-1' },
        { env: (n) => env[n], fetch: (u, i) => fetch(u, i), readFile: async (p) => files[p]!, now: Date.now },
      )
      expect((await sign(auth)).authorization).toContain('Credential=ECS1/')
      expect(aws.calls[0]!.headers.get('authorization')).toBe('pod-identity-token')
    } finally {
      aws.stop()
    }
  })

  test('no source answers: a 503-class failure naming the source, no keys in it', async () => {
    const env: Record<string, string> = { AWS_EC2_METADATA_DISABLED: 'true' }
    const auth = awsSigV4Auth({ region: 'us-east-1' }, { ...noChain, env: (n) => env[n], now: Date.now })
    const r = await auth.authorize({ url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/m/invoke', headers: {}, body: '{}' })
    expect(r).toEqual({ ok: false, status: 503, detail: expect.stringContaining('instance metadata is disabled') })
  })
})

// Local fakes of the three clouds (docs/providers.md "Cloud providers"), each checking its auth on
// every request the way the cloud does, independently of Tollgate's code:
// - Bedrock: every request's SigV4 signature recomputed from the raw request (helpers/sigv4.ts);
//   answers are JSON or real AWS event-stream frames (the kit's encoder, @smithy/core's codec).
// - Google: a token endpoint that verifies the JWT bearer grant's RS256 signature with the service
//   account's public key (jose) and issues expiring tokens; Vertex's rawPredict / streamRawPredict
//   accept only a live token.
// - Entra ID: a client-credentials token endpoint; Azure OpenAI's chat accepts only a live token.
// A refused request is answered in the cloud's own words, which no client may ever see.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { type CryptoKey, exportPKCS8, generateKeyPair, type KeyObject, jwtVerify } from 'jose'
import { eventFrame, exceptionFrame } from '../../src/testing/fake-upstream/aws-event-stream.ts'
import { verifySigV4 } from './sigv4.ts'

/** AWS event-stream messages, encoded as the kit's fake upstream encodes them. */
export { eventFrame, exceptionFrame }

export type CloudAnswer =
  | { kind: 'json'; body: unknown }
  | { kind: 'status'; status: number; body: unknown }
  /** Bytes sent in order; `cut`: the connection is destroyed after them. */
  | { kind: 'bytes'; chunks: Uint8Array[]; contentType: string; cut?: boolean }

export interface SeenCall {
  /** The path as sent, still percent-encoded. */
  path: string
  headers: Record<string, string>
  body: any
}

export interface FakeCloud {
  url: string
  /** Requests that passed the cloud's auth check. */
  seen: SeenCall[]
  /** Requests refused by the auth check, with the reason. */
  refused: string[]
  /** Token grants issued (Google, Entra). */
  grants: number
  script(...a: CloudAnswer[]): void
  stop(): void
}

/** Anthropic events as Bedrock's invoke-with-response-stream sends them: one `chunk` each, the event base64 in `bytes`. */
export const bedrockChunks = (events: unknown[]): Uint8Array[] =>
  events.map((e) => eventFrame('chunk', { bytes: Buffer.from(JSON.stringify(e)).toString('base64'), p: 'abcdefgh' }))

/** The Anthropic events of an SSE recording. */
export function anthropicEventsOf(sse: string): unknown[] {
  return sse
    .split(/\n\n+/)
    .map((frame) =>
      frame
        .split('\n')
        .find((l) => l.startsWith('data:'))
        ?.slice(5)
        .trim(),
    )
    .filter((d): d is string => !!d)
    .map((d) => JSON.parse(d))
}

function answer(a: CloudAnswer): Response {
  if (a.kind === 'json') return Response.json(a.body)
  if (a.kind === 'status') return Response.json(a.body, { status: a.status })
  return new Response(
    new ReadableStream({
      async start(c) {
        for (const chunk of a.chunks) {
          c.enqueue(chunk)
          await Bun.sleep(1)
        }
        if (a.cut) c.error(new Error('cut'))
        else c.close()
      },
    }),
    { headers: { 'content-type': a.contentType } },
  )
}

type Check = (req: Request, target: string, body: string) => Promise<string | undefined>

function serveCloud(check: Check, tokenRoute?: (req: Request, form: URLSearchParams) => Promise<Response>): FakeCloud {
  const queue: CloudAnswer[] = []
  const state: FakeCloud = {
    url: '',
    seen: [],
    refused: [],
    grants: 0,
    script: (...a) => void queue.push(...a),
    stop: () => server.stop(true),
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(req) {
      const raw = req.url.slice(req.url.indexOf('/', req.url.indexOf('//') + 2))
      const body = await req.text()
      if (tokenRoute && new URL(req.url).pathname.endsWith('/token')) return tokenRoute(req, new URLSearchParams(body))
      const why = await check(req, raw, body)
      if (why) {
        state.refused.push(why)
        return Response.json(
          { message: `The request signature we calculated does not match (cloud-internal detail: ${why})` },
          { status: 403 },
        )
      }
      let parsed: any = body
      try {
        parsed = JSON.parse(body)
      } catch {}
      state.seen.push({ path: raw.split('?')[0]!, headers: Object.fromEntries(req.headers), body: parsed })
      return answer(queue.shift() ?? { kind: 'status', status: 500, body: { message: 'nothing scripted' } })
    },
  })
  state.url = `http://127.0.0.1:${server.port}`
  return state
}

/** A Bedrock runtime that accepts only requests signed by one of `keys` for `region`. */
export function startFakeBedrock(region: string, keys: Record<string, string>): FakeCloud {
  return serveCloud(async (req, target, body) => {
    const headers = Object.fromEntries(req.headers)
    const v = verifySigV4({ method: req.method, target, headers, body }, keys, region, 'bedrock')
    return v.ok ? undefined : v.why
  })
}

/** Live bearer tokens of a token endpoint: issued with an expiry the test controls. */
class Tokens {
  private live = new Map<string, number>()
  private n = 0
  constructor(
    private readonly prefix: string,
    readonly now: () => number,
  ) {}
  issue(seconds: number): string {
    const t = `${this.prefix}${++this.n}`
    this.live.set(t, this.now() + seconds * 1000)
    return t
  }
  check(req: Request): string | undefined {
    const t = req.headers.get('authorization')?.replace(/^Bearer /, '')
    const until = t ? this.live.get(t) : undefined
    if (until === undefined) return 'unknown token'
    return this.now() < until ? undefined : 'expired token'
  }
}

export interface TokenCloud extends FakeCloud {
  /** The lifetime of the next tokens, in seconds (default 3600). */
  lifetime: number
  /** While true, the token endpoint refuses every grant (400 invalid_grant). */
  refuse: boolean
}

/** Google: a token endpoint verifying the JWT bearer grant with `publicKey`, and Vertex AI checking its tokens. */
export function startFakeGoogle(publicKey: CryptoKey | KeyObject, clientEmail: string, now: () => number = Date.now): TokenCloud {
  const tokens = new Tokens('ya29.fake-', now)
  const cloud = serveCloud(
    async (req) => tokens.check(req),
    async (_req, form) => {
      if (t.refuse)
        return Response.json({ error: 'invalid_grant', error_description: 'Invalid JWT Signature (google-internal)' }, { status: 400 })
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return Response.json({ error: 'unsupported_grant_type' }, { status: 400 })
      try {
        const { payload, protectedHeader } = await jwtVerify(form.get('assertion') ?? '', publicKey, {
          issuer: clientEmail,
          audience: `${t.url}/token`,
          algorithms: ['RS256'],
          currentDate: new Date(now()),
        })
        if (payload.scope !== 'https://www.googleapis.com/auth/cloud-platform' || protectedHeader.typ !== 'JWT')
          return Response.json({ error: 'invalid_scope' }, { status: 400 })
      } catch (e) {
        return Response.json({ error: 'invalid_grant', error_description: String(e) }, { status: 400 })
      }
      t.grants++
      return Response.json({ access_token: tokens.issue(t.lifetime), expires_in: t.lifetime, token_type: 'Bearer' })
    },
  )
  const t = Object.assign(cloud, { lifetime: 3600, refuse: false })
  return t
}

/** Entra ID: a client-credentials token endpoint for one app, and Azure OpenAI checking its tokens. */
export function startFakeEntra(
  app: { tenantId: string; clientId: string; clientSecret: string },
  now: () => number = Date.now,
): TokenCloud {
  const tokens = new Tokens('eyJ0eXAi.fake-', now)
  const cloud = serveCloud(
    async (req) => tokens.check(req),
    async (req, form) => {
      const ok =
        new URL(req.url).pathname === `/${app.tenantId}/oauth2/v2.0/token` &&
        form.get('grant_type') === 'client_credentials' &&
        form.get('client_id') === app.clientId &&
        form.get('client_secret') === app.clientSecret &&
        form.get('scope') === 'https://cognitiveservices.azure.com/.default'
      if (t.refuse || !ok)
        return Response.json(
          { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided (entra-internal).' },
          { status: 401 },
        )
      t.grants++
      return Response.json({ token_type: 'Bearer', expires_in: t.lifetime, access_token: tokens.issue(t.lifetime) })
    },
  )
  const t = Object.assign(cloud, { lifetime: 3600, refuse: false })
  return t
}

/** A fresh RS256 service account: its key file written to a temporary directory, and its public key for the fake token endpoint. */
export async function serviceAccountFile(tokenUrl: string) {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true })
  const dir = mkdtempSync(`${tmpdir()}/tollgate-sa-`)
  const path = `${dir}/sa.json`
  const email = 'tollgate@test-project.iam.gserviceaccount.com'
  writeFileSync(
    path,
    JSON.stringify({
      type: 'service_account',
      project_id: 'test-project',
      private_key_id: 'key-0001',
      private_key: await exportPKCS8(privateKey),
      client_email: email,
      token_uri: tokenUrl,
    }),
  )
  return { path, publicKey, email }
}

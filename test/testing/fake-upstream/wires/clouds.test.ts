// The fake's cloud wires on their own (no gateway): each path names its wire, model and stream
// ask; the query and every header are recorded; the token endpoint answers any grant and takes
// only scripts named for it; a hang on a cloud path lasts until the caller goes away.
import { afterAll, expect, test } from 'bun:test'
import { startFakeUpstream, TOKEN_MODEL } from 'tollgate/testing'

const fake = startFakeUpstream()
afterAll(() => fake.stop())

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${fake.url}${path}`, { method: 'POST', body, headers })

test('each cloud path: its wire, the model it names (percent-encoding undone) and its stream ask', async () => {
  fake.reset()
  const anthropic = JSON.stringify({ anthropic_version: 'x', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] })
  const converse = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'Hi' }] }] })
  const chat = JSON.stringify({ model: 'gpt-x', messages: [{ role: 'user', content: 'Hi' }] })
  const answers = [
    await post('/b/model/us.anthropic.claude-x-v1%3A0/invoke', anthropic).then((r) => r.json() as Promise<any>),
    await post('/b/model/meta.llama-x/converse', converse).then((r) => r.json() as Promise<any>),
    await post('/v1/projects/p/locations/l/publishers/anthropic/models/claude-x@2025:rawPredict', anthropic).then(
      (r) => r.json() as Promise<any>,
    ),
    await post('/openai/deployments/dep-1/chat/completions?api-version=2025-04-01-preview', chat).then((r) => r.json() as Promise<any>),
  ]
  expect(answers.map((a) => a.content?.[0]?.text ?? a.output?.message.content[0].text ?? a.choices?.[0].message.content)).toEqual(
    Array(4).fill('You said: Hi'),
  )
  expect(fake.requests.map((r) => [r.wire, r.model, r.stream, r.query])).toEqual([
    ['bedrock-anthropic', 'us.anthropic.claude-x-v1:0', false, {}],
    ['bedrock-converse', 'meta.llama-x', false, {}],
    ['vertex-anthropic', 'claude-x@2025', false, {}],
    ['openai-chat', 'dep-1', false, { 'api-version': '2025-04-01-preview' }],
  ])
  const streams = await Promise.all(
    ['/b/model/m/invoke-with-response-stream', '/b/model/m/converse-stream', '/publishers/anthropic/models/m:streamRawPredict'].map((p) =>
      post(p, anthropic).then((r) => r.headers.get('content-type')),
    ),
  )
  expect(streams).toEqual(['application/vnd.amazon.eventstream', 'application/vnd.amazon.eventstream', 'text/event-stream'])
})

test('any credential is accepted and recorded as sent', async () => {
  fake.reset()
  const sigv4 = 'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20250101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=00'
  const res = await post('/model/m/converse', '{"messages":[]}', { authorization: sigv4, 'x-amz-date': '20250101T000000Z' })
  expect(res.status).toBe(200)
  expect([fake.requests[0]!.headers.authorization, fake.requests[0]!.headers['x-amz-date']]).toEqual([sigv4, '20250101T000000Z'])
})

test('the token endpoint: any grant gets an hour’s bearer token; `*` scripts never apply to it, its own do', async () => {
  fake.reset()
  fake.on('*', { error: { status: 500 } })
  const grant = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'c', client_secret: 's' }).toString()
  const form = { 'content-type': 'application/x-www-form-urlencoded' }
  const ok = (await (await post('/tenant/oauth2/v2.0/token', grant, form)).json()) as any
  expect([ok.token_type, ok.expires_in, ok.access_token]).toEqual(['Bearer', 3600, expect.stringMatching(/^fake-token-/)])
  fake.once(TOKEN_MODEL, { error: { status: 400 } })
  const refused = await post('/token', 'grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=a.b.c', form)
  expect([refused.status, ((await refused.json()) as any).error]).toEqual([400, 'invalid_grant'])
  expect(fake.requests.map((r) => [r.wire, r.model, r.body.grant_type])).toEqual([
    ['oauth-token', TOKEN_MODEL, 'client_credentials'],
    ['oauth-token', TOKEN_MODEL, 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
  ])
})

test('a hang on a Bedrock path lasts until the caller goes away', async () => {
  fake.reset()
  fake.on('m', { hang: true })
  const res = fetch(`${fake.url}/model/m/invoke-with-response-stream`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(100) })
  expect(await res.then(() => 'answered').catch((e: Error) => e.name)).toBe('TimeoutError')
  expect(fake.requests.map((r) => [r.wire, r.model, r.stream])).toEqual([['bedrock-anthropic', 'm', true]])
})

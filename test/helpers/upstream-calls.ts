// The upstream call path without HTTP in front of it (src/inference/upstream-call.ts and
// serve-chain.ts): gateways on the scriptable fake upstream (src/testing/fake-upstream, one model
// name per route so each route is scripted on its own), a router whose log lines are kept and
// whose backoffs take no time, and a chat call as the pipeline hands it over — its lifecycle, its
// observer (which records every attempt) and the client's abort.
import type { CatalogModel } from '../../src/catalog/catalog.ts'
import type { Gateway, GatewayProtocol, Route } from '../../src/core/gateway.ts'
import { CallLife } from '../../src/inference/call-life.ts'
import { Cut } from '../../src/inference/inflight.ts'
import type { UpstreamCallDeps, UpstreamCallRequest } from '../../src/inference/upstream-call.ts'
import { base62 } from '../../src/lib/ids.ts'
import { type Logger, silentLogger } from '../../src/lib/log.ts'
import { CallObserver } from '../../src/observability/call-observer.ts'
import { Metrics } from '../../src/observability/telemetry.ts'
import { noopTracer } from '../../src/observability/tracing.ts'
import { chatSpoke } from '../../src/protocols/chat/index.ts'
import type { ChatRequest } from '../../src/protocols/chat/schema.ts'
import type { UpstreamStream } from '../../src/providers/transport/http.ts'
import { type PolicyFile, resolvePolicy } from '../../src/routing/policy.ts'
import { Router } from '../../src/routing/router.ts'
import { createMemoryBoard } from '../../src/store/breaker-board.ts'

/** What the router's default output cap is in these tests (a translated body without max_tokens gets it). */
export const DEFAULT_MAX_OUTPUT = 1_234

/** One attempt per route, no breaker: what a test does not set is not in the way. */
const PLAIN: PolicyFile = { retries: 0, breaker: { enabled: false } }

/** A gateway at `url` (the fake's, or any) speaking `protocol`, its policy `PLAIN` unless given. */
export function gateway(
  id: string,
  url: string,
  over: { protocol?: GatewayProtocol; policy?: PolicyFile } & Partial<Omit<Gateway, 'policy' | 'protocol'>> = {},
): Gateway {
  const { policy, protocol, ...rest } = over
  return {
    id,
    protocol: protocol ?? 'openai-chat',
    baseUrl: `${url}/v1`,
    apiKey: `sk-${id}`,
    timeoutMs: 5_000,
    enabled: true,
    ...rest,
    policy: resolvePolicy(policy ?? PLAIN),
  }
}

/** The route to `gw` whose upstream model is `up-<gateway id>` (what the fake scripts it by). */
export const routeTo = (gw: Gateway, over: Partial<Omit<Route, 'gateway'>> = {}): Route => ({
  gateway: gw,
  upstreamModel: `up-${gw.id}`,
  ...over,
})

/** A router with its log lines kept and its sleeps recorded (they take no time). */
export function upstreamHarness() {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = []
  const log = Object.fromEntries(
    ['debug', 'info', 'warn', 'error'].map((level) => [level, (msg: string, fields = {}) => void lines.push({ level, msg, fields })]),
  ) as unknown as Logger
  const slept: number[] = []
  const router = new Router(createMemoryBoard(), log, Date.now, async (ms) => void slept.push(ms))
  const deps: UpstreamCallDeps = { router, config: { defaultMaxOutputTokens: DEFAULT_MAX_OUTPUT, upstreamStreamClient: 'fetch' } }
  const metrics = new Metrics({ processMetrics: false })
  return { deps, router, lines, slept, metrics, msgs: () => lines.map((l) => l.msg) }
}

/**
 * A chat call of `model` ("Hi", `over` merged into the client's body) as the pipeline hands it
 * to the upstream call: `client` aborts it as a client going away, `drain` as a drain's grace ending.
 */
export function chatCall(
  h: { metrics: Metrics },
  model: CatalogModel,
  over: Record<string, unknown> = {},
  passHeaders: Record<string, string> = {},
): { r: UpstreamCallRequest<ChatRequest>; client: AbortController; drain: Cut } {
  const raw: Record<string, unknown> = { model: model.id, messages: [{ role: 'user', content: 'Hi' }], ...over }
  const body = chatSpoke.parse(raw)
  const requestId = `req_${base62(12)}`
  const client = new AbortController()
  const drain = new Cut()
  const r: UpstreamCallRequest<ChatRequest> = {
    spoke: chatSpoke,
    raw,
    body,
    stream: chatSpoke.stream(body),
    model,
    requestId,
    passHeaders,
    life: new CallLife(client.signal, drain),
    obs: new CallObserver(h.metrics, noopTracer, silentLogger, 'chat', new Headers(), requestId, performance.now()),
    tokens: 0,
    keyId: 'k_test',
  }
  return { r, client, drain }
}

/** The attempts the call's observer recorded: gateway, public model, outcome and HTTP status or failure kind. */
export const attemptsOf = (r: UpstreamCallRequest<unknown>) =>
  r.obs.attempts.map((a) => [a.gateway, a.model, a.outcome, a.status ?? a.failure ?? null])

/** A served stream's body, read to its end, as text. */
export async function readAll(stream: UpstreamStream): Promise<string> {
  const dec = new TextDecoder()
  let text = ''
  for (;;) {
    const r = await stream.body.read()
    if (r.done) return text + dec.decode()
    text += dec.decode(r.value, { stream: true })
  }
}

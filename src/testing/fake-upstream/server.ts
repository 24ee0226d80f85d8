// The scriptable fake upstream (docs/testing.md "Scripting the fake upstream"): one Bun.serve that
// speaks every wire in wires/ (the vendors', the clouds' and a token endpoint), answers each call
// by the reply scripted for its model (once, then always, then the default: the echo), and
// records every request with its headers. It accepts any credential: a test asserts on what was
// sent (a SigV4 `authorization`, a bearer token) in the records.
import { deliver } from './deliver.ts'
import { chunks, type RecordedRequest, type Reply, type Script, tokensOf } from './reply.ts'
import { wireFor } from './wires/index.ts'
import type { Answer, RequestView, Wire } from './wires/wire.ts'

export interface FakeUpstreamOptions {
  port?: number
  hostname?: string
  /** The reply of any call nothing else scripted (default: the echo, at once). */
  reply?: Reply
}

/** Scripts for every model: the key a script is kept under. */
export const ANY_MODEL = '*'

export interface FakeUpstream {
  /** `http://127.0.0.1:<port>`; a catalog gateway's baseUrl is this plus any prefix and `/v1` (a cloud's: its own path, docs/testing.md "Cloud wires on the fake"). */
  url: string
  port: number
  /** Every request received, oldest first. */
  requests: RecordedRequest[]
  /** Every later call for this upstream model (`*`: any model) gets this reply. */
  on(model: string, script: Script): FakeUpstream
  /** The next calls for this model (`*`: any model) get these replies, one each, before `on`'s. */
  once(model: string, ...scripts: Script[]): FakeUpstream
  /** Forgets scripts and recorded requests. */
  reset(): void
  stop(): Promise<void>
}

let calls = 0

function answerOf(wire: Wire, view: RequestView, body: any, reply: Reply): Answer {
  const tools = (reply.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_fake${++calls}_${i}`,
    name: c.name,
    arguments: JSON.stringify(c.arguments ?? {}),
  }))
  const text = reply.text ?? (tools.length ? '' : `You said: ${view.prompt}`)
  const outputText = text + (reply.reasoning ?? '') + tools.map((t) => t.name + t.arguments).join('')
  const embedding = wire.name === 'embeddings'
  const usage = reply.usage === undefined ? { input: tokensOf(view.inputText), output: embedding ? 0 : tokensOf(outputText) } : reply.usage
  return {
    id: `fake${++calls}`,
    model: view.model,
    text,
    pieces: chunks(text, reply.errorAfterChars),
    toolCalls: tools,
    reasoning: reply.reasoning,
    usage,
    inputs: view.inputs ?? 1,
    dimensions: reply.dimensions ?? 8,
    asks: { streamUsage: body?.stream_options?.include_usage === true, base64: body?.encoding_format === 'base64' },
  }
}

export function startFakeUpstream(opts: FakeUpstreamOptions = {}): FakeUpstream {
  const always = new Map<string, Script>()
  const queued = new Map<string, Script[]>()
  const pick = (model: string, exact: boolean): Script =>
    exact
      ? (queued.get(model)?.shift() ?? always.get(model) ?? {})
      : (queued.get(model)?.shift() ?? queued.get(ANY_MODEL)?.shift() ?? always.get(model) ?? always.get(ANY_MODEL) ?? opts.reply ?? {})
  const fake: FakeUpstream = {
    url: '',
    port: 0,
    requests: [],
    on(model, script) {
      always.set(model, script)
      return fake
    },
    once(model, ...scripts) {
      queued.set(model, [...(queued.get(model) ?? []), ...scripts])
      return fake
    },
    reset() {
      always.clear()
      queued.clear()
      fake.requests.length = 0
    },
    stop: () => server.stop(true),
  }
  const server = Bun.serve({
    port: opts.port ?? 0,
    hostname: opts.hostname ?? '127.0.0.1',
    // A scripted hang lasts until the caller goes away, not until Bun's idle timer.
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url)
      const path = url.pathname
      const wire = wireFor(path)
      if (req.method !== 'POST' || !wire)
        return Response.json({ error: { message: `The fake upstream has no ${req.method} ${path}.` } }, { status: 404 })
      const text = await req.text()
      let body: any
      try {
        body = wire.form ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text)
      } catch {
        return Response.json({ error: { message: 'The request body is not JSON.' } }, { status: 400 })
      }
      const view = wire.read(body, path)
      const recorded: RecordedRequest = {
        wire: wire.name,
        method: req.method,
        path,
        query: Object.fromEntries(url.searchParams),
        headers: Object.fromEntries(req.headers),
        body,
        model: view.model,
        stream: view.stream,
        at: Date.now(),
      }
      fake.requests.push(recorded)
      const script = pick(view.model, wire.form === true)
      const reply = typeof script === 'function' ? script(recorded) : script
      return deliver(wire, view.stream, answerOf(wire, view, body, reply), reply, req.signal)
    },
  })
  fake.port = server.port!
  fake.url = `http://${server.hostname === '::' ? '127.0.0.1' : server.hostname}:${server.port}`
  return fake
}

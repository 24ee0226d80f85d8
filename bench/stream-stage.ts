// `bun bench/stream-stage.ts [checkout] [reads]` (docs/benchmarks-log.md "The process's own CPU
// per call"): the CPU of the stream stage alone for one chat pass-through stream of the bench's
// shape (role chunk, 20 deltas, finish, usage, [DONE]: 24 events) — SSE parse, the upstream's
// decoder, the chat tee — with no server, socket or store. `reads` splits the upstream's bytes
// into that many reads (1: the whole stream in one, as at saturation). The process's own CPU
// time (not the clock), the minimum of 12 runs: on a machine shared with other work the minimum
// moves little, so two checkouts compare run after run (pin it: `taskset -c 1`).
const root = process.argv[2] ?? new URL('..', import.meta.url).pathname
const reads = Number(process.argv[3] ?? 1)
const { SseParser } = await import(`${root}/src/lib/sse/parse.ts`)
const { chatStreamDecoder } = await import(`${root}/src/providers/openai-chat/stream-decoder.ts`)
const { teeTransform } = await import(`${root}/src/inference/stream-translate.ts`)
const { chatTee } = await import(`${root}/src/protocols/chat/passthrough.ts`)

// As bench/fake-upstream.ts streams it.
const chunk = (delta: object, finish: string | null) =>
  `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"bench-model","choices":[{"index":0,"delta":${JSON.stringify(delta)},"finish_reason":${finish ? `"${finish}"` : 'null'}}]}\n\n`
const frames = [chunk({ role: 'assistant', content: '' }, null)]
for (let i = 0; i < 20; i++) frames.push(chunk({ content: `tok${i} ` }, null))
frames.push(chunk({}, 'stop'))
frames.push(
  'data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"bench-model","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":20,"total_tokens":32}}\n\n',
)
frames.push('data: [DONE]\n\n')
const bytes = new TextEncoder().encode(frames.join(''))
const pieces = Array.from({ length: reads }, (_, i) =>
  bytes.subarray(Math.floor((i * bytes.length) / reads), Math.floor(((i + 1) * bytes.length) / reads)),
)

/** One stream through the stage; the length of what the client would receive. */
function stream(): number {
  const parser = new SseParser()
  const t = teeTransform(chatStreamDecoder(), chatTee('bench/chat'))
  let sent = 0
  for (const p of pieces) {
    let out = ''
    for (const ev of parser.push(p)) out += t.push(ev)
    sent += out.length
  }
  for (const ev of parser.end()) sent += t.push(ev).length
  if (!t.complete()) throw new Error('the stream did not complete')
  return sent + t.close('{"cost":0}').length
}

const N = 20_000
let best = Number.POSITIVE_INFINITY
for (let run = 0; run < 12; run++) {
  const before = process.cpuUsage()
  for (let i = 0; i < N; i++) stream()
  const used = process.cpuUsage(before)
  best = Math.min(best, (used.user + used.system) / N)
}
console.log(`${root}: ${best.toFixed(2)} µs of CPU per stream (24 events, ${reads} read${reads === 1 ? '' : 's'})`)

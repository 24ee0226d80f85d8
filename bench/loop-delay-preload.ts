// Preloaded into the Tollgate the benchmark measures (`bun --preload bench/loop-delay-preload.ts
// src/index.ts`): its event-loop delay, served on a side channel of its own so that reading it
// costs the process nothing else (a GET /metrics also walks the heap and /proc/self/fd, which
// with thousands of open streams stalls the loop it is measuring).
// `perf_hooks.monitorEventLoopDelay` (Bun implements it): a 10 ms timer whose lateness is
// recorded. GET / answers {"p50","p99","max"} in ms since the previous GET, and starts anew.
import { monitorEventLoopDelay } from 'node:perf_hooks'

const histogram = monitorEventLoopDelay({ resolution: 10 })
histogram.enable()
const ms = (ns: number) => ns / 1e6

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch() {
    const answer = { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), count: histogram.count }
    histogram.reset()
    return Response.json(answer)
  },
})
console.log(`loop-delay port ${server.port}`)

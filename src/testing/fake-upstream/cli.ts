// `bun run fake-upstream --port 9100 [--host 127.0.0.1] [--delay 15]`: the fake upstream as a
// process, for manual trials and other languages' suites. Every call is answered by the echo;
// the address each wire answers on is printed.
import { parseArgs } from 'node:util'
import { startFakeUpstream } from './server.ts'
import { WIRES } from './wires/index.ts'

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { port: { type: 'string', default: '0' }, host: { type: 'string', default: '127.0.0.1' }, delay: { type: 'string' } },
})
const port = Number(values.port)
const frameDelayMs = values.delay === undefined ? undefined : Number(values.delay)
if (!Number.isInteger(port) || port < 0 || port > 65_535 || (frameDelayMs !== undefined && !(frameDelayMs >= 0))) {
  console.error('usage: bun run fake-upstream --port <0-65535> [--host <address>] [--delay <ms between stream frames>]')
  process.exit(2)
}
const fake = startFakeUpstream({ port, hostname: values.host, reply: { frameDelayMs } })
console.log(`fake upstream listening on ${fake.url}`)
for (const w of WIRES) console.log(`  ${w.name.padEnd(20)} POST ${fake.url}/v1${w.suffix}`)
const stop = () => void fake.stop().then(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)

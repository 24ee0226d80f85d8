// `bun run fake-upstream --port 9100 [--host 127.0.0.1] [--delay 15]`: the fake upstream as a
// process, for manual trials and other languages' suites. Every call is answered by the echo;
// the address each wire answers on is printed, and `--help` says how a catalog's gateways (the
// clouds' included) point at it (docs/testing.md "Scripting the fake upstream").
import { parseArgs } from 'node:util'
import { startFakeUpstream } from './server.ts'
import { WIRES } from './wires/index.ts'

const USAGE = 'usage: bun run fake-upstream --port <0-65535> [--host <address>] [--delay <ms between stream frames>]'

const HELP = `${USAGE}

A fake model upstream: every call is answered with "You said: <the last user message>" on the
wire it was sent in, JSON or stream. Any prefix may come before a wire's path, so one fake
serves many catalog gateways (baseUrl = <fake URL>/<any prefix>/v1 for the OpenAI and
Anthropic wires). Every credential is accepted; nothing is verified.

Pointing a catalog gateway at it (docs/testing.md "Cloud wires on the fake"):
  openai-chat, openai-responses, anthropic-messages   "baseUrl": "<fake>/<prefix>/v1"
  bedrock-anthropic, bedrock-converse                 "baseUrl": "<fake>/bedrock",
      "auth": { "type": "aws-sigv4", "region": "us-east-1", "accessKeyId": "any", "secretAccessKey": "any" }
  vertex-anthropic                                    "baseUrl": "<fake>/vertex/v1/projects/p/locations/us-east5",
      "auth": { "type": "google-service-account", "credentials": "<any RSA service-account key>", "tokenUrl": "<fake>/token" }
  openai-chat on Vertex (Gemini)                      "baseUrl": "<fake>/vertex/v1/projects/p/locations/global/endpoints/openapi"
  openai-chat on Azure (the deployment is the model)  "baseUrl": "<fake>/azure/openai/deployments/<deployment>",
      "query": { "api-version": "2025-04-01-preview" },
      "auth": { "type": "azure-entra", "tenantId": "t", "clientId": "c", "clientSecret": "s", "tokenUrl": "<fake>/t/oauth2/v2.0/token" }
The token endpoint grants any request an hour's bearer token.`

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    delay: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
})
if (values.help) {
  console.log(HELP)
  process.exit(0)
}
const port = Number(values.port)
const frameDelayMs = values.delay === undefined ? undefined : Number(values.delay)
if (!Number.isInteger(port) || port < 0 || port > 65_535 || (frameDelayMs !== undefined && !(frameDelayMs >= 0))) {
  console.error(`${USAGE}\n(--help: how to point a catalog's gateways at it)`)
  process.exit(2)
}
const fake = startFakeUpstream({ port, hostname: values.host, reply: { frameDelayMs } })
console.log(`fake upstream listening on ${fake.url}`)
for (const w of WIRES) console.log(`  ${w.name.padEnd(20)} POST ${fake.url}${w.route}`)
const stop = () => void fake.stop().then(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)

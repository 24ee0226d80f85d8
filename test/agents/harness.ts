// What every agent suite stands on: the pinned release installed, a Tollgate on Postgres + Redis
// with one fake upstream per protocol and a model routed to each (`t/<protocol>`), and for each
// test a funded user and a throwaway agent home. Registered as the suite's beforeAll/afterAll.
import { afterAll, beforeAll } from 'bun:test'
import { usdToMicros } from '../../src/lib/money.ts'
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.ts'
import { perProtocolCatalog, startTestGateway, type TestGateway, UPSTREAM_PROTOCOLS } from '../helpers/gateway.ts'
import { installAgent } from './install.ts'
import { agentHome, removeAgentHomes } from './spawn-agent.ts'
import type { UpstreamProtocol } from './upstream-turns.ts'
import type { AgentRelease } from './versions.ts'

export const CREDIT_USD = 5
export const CREDIT = usdToMicros(CREDIT_USD)!

export function agentHarness(release: AgentRelease) {
  const ups = {} as Record<UpstreamProtocol, FakeUpstream>
  const h = { ups, gw: undefined as unknown as TestGateway, base: '' }
  beforeAll(async () => {
    await installAgent(release)
    for (const p of UPSTREAM_PROTOCOLS) ups[p] = startFakeUpstream()
    h.gw = await startTestGateway(
      { db: 'postgres', store: 'redis' },
      perProtocolCatalog(ups, { capabilities: ['text', 'streaming', 'tool-calling'] }),
    )
    h.base = h.gw.listen()
  }, 180_000)
  afterAll(async () => {
    await h.gw?.stop()
    for (const p of UPSTREAM_PROTOCOLS) ups[p]?.stop()
    await removeAgentHomes()
  })
  /** A funded user and an empty agent home; the upstream's record of requests starts over. */
  const fresh = async (p: UpstreamProtocol) => {
    ups[p].seen.length = 0
    return { user: await h.gw.user(CREDIT_USD, { rpm: 1_000 }), home: await agentHome() }
  }
  return Object.assign(h, { fresh })
}

// The breakers of this instance (docs/failover.md "Circuit breaker"): one per gateway (transport
// failures and refused keys: the gateway is the failing unit) and one per gateway+model (error
// answers about one model). Decisions are in-process; changes are published to the board and
// others' changes applied from it, with a periodic snapshot to catch up on missed messages.
import type { GatewayError } from '../core/errors.ts'
import type { Route } from '../core/gateway.ts'
import type { Logger } from '../lib/log.ts'
import type { BreakerBoard } from '../store/breaker-board.ts'
import { Breaker, type Transition } from './breaker.ts'
import { isCoolKey } from './cooling.ts'
import type { FailoverCounters } from './counters.ts'

export const gatewayKeyOf = (gatewayId: string) => `gw:${gatewayId}`
export const routeKeyOf = (gatewayId: string, upstreamModel: string) => `gw:${gatewayId}|model:${upstreamModel}`
export const gatewayKey = (route: Route) => gatewayKeyOf(route.gateway.id)
export const routeKey = (route: Route) => routeKeyOf(route.gateway.id, route.upstreamModel)

/** A route's two breakers as one instance sees them, read-only (docs/operators.md "Models and gateways"). */
export interface RouteHealth {
  gateway: string
  route: string
  /** Milliseconds until an open breaker of the route lets a probe through (0: not resting). */
  nextProbeInMs: number
}

/** Which breaker a failure belongs to; undefined: the answer says nothing about health. */
function failingUnit(err: GatewayError): 'gateway' | 'route' | undefined {
  const u = err.extra.upstream
  if (!u || !err.retryable) return undefined
  if (u.kind === 'connect' || u.kind === 'timeout' || u.kind === 'first-token') return 'gateway'
  if (u.kind === 'status' && (u.status === 401 || u.status === 403)) return 'gateway'
  return 'route'
}

export class Breakers {
  private readonly byKey = new Map<string, Breaker>()
  private readonly pending = new Map<string, Parameters<Breaker['apply']>[0]>()
  /** Breaker key → the request that holds its half-open probe here. */
  private readonly probing = new Map<string, string>()
  private timer: ReturnType<typeof setInterval> | undefined

  constructor(
    private readonly board: BreakerBoard,
    private readonly log: Logger,
    private readonly counters: FailoverCounters,
    private readonly now: () => number = Date.now,
  ) {
    board.subscribe((key, state) => {
      if (isCoolKey(key)) return
      const b = this.byKey.get(key)
      if (b) b.apply(state, this.now())
      else this.pending.set(key, state)
    })
  }

  /** Loads the board's open breakers now and every `syncMs` (0: only now). */
  async start(syncMs: number): Promise<void> {
    await this.sync()
    if (syncMs > 0)
      this.timer = setInterval(() => void this.sync().catch((e) => this.log.warn('breaker sync failed', { err: String(e) })), syncMs)
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
  }

  private async sync(): Promise<void> {
    for (const [key, state] of await this.board.snapshot()) {
      if (isCoolKey(key)) continue
      const b = this.byKey.get(key)
      if (b) b.apply(state, this.now())
      else this.pending.set(key, state)
    }
  }

  private breaker(key: string, route: Route): Breaker {
    let b = this.byKey.get(key)
    if (!b) {
      b = new Breaker(route.gateway.policy.breaker)
      const shared = this.pending.get(key)
      if (shared) b.apply(shared, this.now())
      this.pending.delete(key)
      this.byKey.set(key, b)
    }
    b.policy = route.gateway.policy.breaker // a catalog refresh may have changed it
    return b
  }

  /** Whether `route` may be attempted now; a half-open probe is claimed across instances. */
  async admit(route: Route, requestId: string): Promise<boolean> {
    if (!route.gateway.policy.breaker.enabled) return true
    const now = this.now()
    for (const key of [gatewayKey(route), routeKey(route)]) {
      const b = this.breaker(key, route)
      const admission = b.admit(now)
      if (admission === 'pass') continue
      if (admission === 'probe' && (await this.claim(key, b))) {
        this.probing.set(key, requestId)
        this.counters.probes++
        this.counters.listener({ kind: 'breaker', gateway: route.gateway.id, state: 'half_open' })
        this.log.info('breaker probe', { requestId, breaker: key })
        continue
      }
      this.counters.breakerSkips++
      this.log.info('route skipped: breaker open', { requestId, breaker: key })
      return false
    }
    return true
  }

  private async claim(key: string, b: Breaker): Promise<boolean> {
    const ok = await this.board.claimProbe(key, b.policy.cooldownMs).catch(() => true)
    if (!ok) b.probeDenied(this.now())
    return ok
  }

  /**
   * An attempt whose call ended on the caller's side (client gone, drain, deadline) is neither a
   * failure nor a success: nothing is recorded, and a probe it held is freed (docs/failover.md
   * "Who ended the call").
   */
  release(route: Route, requestId: string): void {
    for (const key of [gatewayKey(route), routeKey(route)]) {
      if (this.probing.get(key) !== requestId) continue
      this.probing.delete(key)
      this.byKey.get(key)?.probeAbandoned()
      this.board.releaseProbe(key).catch((e) => this.log.warn('breaker probe release failed', { breaker: key, err: String(e) }))
    }
  }

  /** Milliseconds until the first of `routes` may be tried again (all skipped by open breakers). */
  nextProbeInMs(routes: readonly Route[]): number {
    const now = this.now()
    let soonest = Number.POSITIVE_INFINITY
    for (const route of routes) {
      const at = Math.max(...[gatewayKey(route), routeKey(route)].map((k) => this.byKey.get(k)?.reopensAt() ?? 0))
      soonest = Math.min(soonest, Math.max(0, at - now))
    }
    return Number.isFinite(soonest) ? soonest : 0
  }

  /** An attempt's outcome: `err` undefined for an answer (any answer that is not a failure). */
  record(route: Route, err?: GatewayError): void {
    if (!route.gateway.policy.breaker.enabled) return
    if (this.probing.size > 0) for (const key of [gatewayKey(route), routeKey(route)]) this.probing.delete(key)
    if (!err || !failingUnit(err)) {
      for (const key of [gatewayKey(route), routeKey(route)]) this.changed(route, key, this.breaker(key, route).success())
      return
    }
    if (failingUnit(err) === 'gateway') {
      this.changed(route, gatewayKey(route), this.breaker(gatewayKey(route), route).failure(this.now()))
      return
    }
    // An error answer about one model shows the gateway itself is reachable.
    this.changed(route, gatewayKey(route), this.breaker(gatewayKey(route), route).success())
    this.changed(route, routeKey(route), this.breaker(routeKey(route), route).failure(this.now()))
  }

  /** The phase of a breaker as this instance sees it (tests, health views). */
  phase(key: string): string {
    const b = this.byKey.get(key)
    if (b) return b.phase
    const shared = this.pending.get(key)
    return shared?.phase === 'open' && shared.until > this.now() ? 'open' : 'closed'
  }

  /** Read-only: the route's breakers for the operator's gateway view; changes nothing. */
  health(gatewayId: string, upstreamModel: string): RouteHealth {
    const keys = [gatewayKeyOf(gatewayId), routeKeyOf(gatewayId, upstreamModel)] as const
    const now = this.now()
    const reopens = keys.map((k) => {
      const b = this.byKey.get(k)
      if (b) return b.reopensAt()
      const shared = this.pending.get(k)
      return shared?.phase === 'open' ? shared.until : 0
    })
    return { gateway: this.phase(keys[0]), route: this.phase(keys[1]), nextProbeInMs: Math.max(0, ...reopens.map((at) => at - now)) }
  }

  private changed(route: Route, key: string, t: Transition | undefined): void {
    if (!t) return
    this.counters.listener({ kind: 'breaker', gateway: route.gateway.id, state: t.to === 'open' ? 'open' : 'closed' })
    if (t.to === 'open') {
      this.counters.breakerOpened++
      this.log.warn('breaker opened', { breaker: key, reason: t.reason, untilMs: t.until })
    } else {
      this.counters.breakerClosed++
      this.log.info('breaker closed', { breaker: key })
    }
    const state = t.to === 'open' ? { phase: 'open' as const, until: t.until } : { phase: 'closed' as const }
    this.board.publish(key, state).catch((e) => this.log.warn('breaker publish failed', { breaker: key, err: String(e) }))
  }
}

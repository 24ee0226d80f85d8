// One circuit breaker (docs/failover.md "Circuit breaker"), pure: closed → open on N
// consecutive failures or a failure rate over the last `window` attempts; open skips the route
// for `cooldownMs`; then half-open lets one probe through; the probe's success closes it, its
// failure opens it again. Time is passed in, so the machine is tested without clocks.
import type { BreakerPolicy } from './policy.ts'
import type { SharedBreaker } from '../store/breaker-board.ts'

export type Phase = 'closed' | 'open' | 'half-open'
/** pass: a normal attempt; probe: the one half-open attempt; skip: leave the route alone. */
export type Admission = 'pass' | 'probe' | 'skip'
/** A change other instances must learn about. */
export type Transition = { to: 'open'; until: number; reason: string } | { to: 'closed' }

export class Breaker {
  phase: Phase = 'closed'
  private consecutive = 0
  /** Last outcomes, true = failure, at most policy.window. */
  private outcomes: boolean[] = []
  private openUntil = 0
  private probeSince: number | undefined

  constructor(public policy: BreakerPolicy) {}

  /** What this attempt may do; moves open → half-open once the cool-down is over. */
  admit(now: number): Admission {
    if (this.phase === 'closed') return 'pass'
    if (this.phase === 'open') {
      if (now < this.openUntil) return 'skip'
      this.phase = 'half-open'
      this.probeSince = undefined
    }
    // A probe that never reported (its call vanished) frees the slot after one cool-down.
    if (this.probeSince !== undefined && now - this.probeSince < this.policy.cooldownMs) return 'skip'
    this.probeSince = now
    return 'probe'
  }

  /** The probe's call ended before the upstream said anything (client gone, drain): the slot is free again. */
  probeAbandoned(): void {
    if (this.phase === 'half-open') this.probeSince = undefined
  }

  /** When this breaker may next let an attempt through (0: now). */
  reopensAt(): number {
    if (this.phase === 'open') return this.openUntil
    if (this.phase === 'half-open' && this.probeSince !== undefined) return this.probeSince + this.policy.cooldownMs
    return 0
  }

  /** Another instance holds the probe: wait one more cool-down before asking again. */
  probeDenied(now: number): void {
    this.probeSince = now
  }

  success(): Transition | undefined {
    if (this.phase === 'open') return undefined // a call that began before the trip
    if (this.phase === 'half-open') {
      this.reset()
      return { to: 'closed' }
    }
    this.consecutive = 0
    this.note(false)
    return undefined
  }

  failure(now: number): Transition | undefined {
    if (this.phase === 'open') return undefined
    if (this.phase === 'half-open') return this.open(now, 'probe failed')
    this.consecutive++
    this.note(true)
    if (this.consecutive >= this.policy.failures) return this.open(now, `${this.consecutive} consecutive failures`)
    const failed = this.outcomes.filter(Boolean).length
    if (this.outcomes.length >= this.policy.window && failed / this.outcomes.length >= this.policy.failureRate)
      return this.open(now, `${failed} of the last ${this.outcomes.length} attempts failed`)
    return undefined
  }

  /** What another instance published. */
  apply(s: SharedBreaker, now: number): void {
    if (s.phase === 'closed') {
      if (this.phase !== 'closed') this.reset()
      return
    }
    if (s.until <= now) return
    if (this.phase !== 'open' || this.openUntil < s.until) {
      this.phase = 'open'
      this.openUntil = s.until
      this.probeSince = undefined
    }
  }

  private open(now: number, reason: string): Transition {
    this.phase = 'open'
    this.openUntil = now + this.policy.cooldownMs
    this.probeSince = undefined
    this.consecutive = 0
    this.outcomes = []
    return { to: 'open', until: this.openUntil, reason }
  }

  private reset(): void {
    this.phase = 'closed'
    this.consecutive = 0
    this.outcomes = []
    this.probeSince = undefined
  }

  private note(failed: boolean): void {
    this.outcomes.push(failed)
    if (this.outcomes.length > this.policy.window) this.outcomes.shift()
  }
}

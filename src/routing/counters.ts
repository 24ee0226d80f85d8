// Failover counters since the process started, for logs now and a metrics endpoint later
// (docs/failover.md "Observing failover"). Plain numbers: reading them costs nothing.
/** What a metrics layer is told as it happens (labels: the gateway id, never a user or model). */
export type RoutingEvent =
  | { kind: 'retry' | 'failover'; gateway: string }
  | { kind: 'breaker'; gateway: string; state: 'open' | 'closed' | 'half_open' }

export class FailoverCounters {
  /** Set once by the runtime (docs/observability.md); a no-op otherwise. */
  listener: (e: RoutingEvent) => void = () => {}

  /** Upstream attempts made (first tries, retries and probes). */
  attempts = 0
  /** Attempts repeated on the same route after a retryable failure (a call that ended in its backoff made none). */
  retries = 0
  /** Calls waiting out a retry's backoff right now. */
  backingOff = 0
  /** Calls that moved from one route to the next. */
  failovers = 0
  /** Routes left out because their breaker was open (or another instance held the probe). */
  breakerSkips = 0
  /** Routes left out because their upstream rpm/tpm was spent (docs/failover.md "Upstream limits"). */
  limitSkips = 0
  breakerOpened = 0
  breakerClosed = 0
  /** Half-open probes let through by this instance. */
  probes = 0
  /** Streams that sent no content event within the first-token deadline. */
  firstTokenTimeouts = 0
  /** Stream events skipped because they could not be read. */
  unreadableEvents = 0

  snapshot(): Record<string, number> {
    const { listener: _, ...numbers } = this
    return numbers as unknown as Record<string, number>
  }
}

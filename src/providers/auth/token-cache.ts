// A credential kept for one gateway and shared by its concurrent calls (docs/providers.md "Cloud
// auth"): one fetch however many calls wait for it (single flight), refreshed in the background
// during the last part of its life, and fetched in the foreground only when none is usable.
// A failed fetch is shared by the calls that waited for it; the next call tries again.

export interface Expiring<T> {
  value: T
  /** Epoch ms; undefined: never expires (static keys). */
  expiresAt: number | undefined
  /** Epoch ms the value was fetched. */
  fetchedAt: number
}

/** How early before expiry a value is refreshed in the background: the last fifth of its life, at most 5 minutes. */
const refreshFrom = (e: Expiring<unknown>): number =>
  e.expiresAt === undefined ? Number.POSITIVE_INFINITY : e.expiresAt - Math.min(300_000, (e.expiresAt - e.fetchedAt) / 5)
/** A value this close to expiry is not used: a request signed with it could arrive after it expired. */
const usableUntil = (e: Expiring<unknown>): number =>
  e.expiresAt === undefined ? Number.POSITIVE_INFINITY : e.expiresAt - Math.min(30_000, (e.expiresAt - e.fetchedAt) / 10)

export class CredentialCache<T> {
  private current: Expiring<T> | undefined
  private inflight: Promise<Expiring<T>> | undefined

  constructor(
    private readonly fetchValue: () => Promise<Expiring<T>>,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<T> {
    const c = this.current
    const now = this.now()
    if (c && now < refreshFrom(c)) return c.value
    if (c && now < usableUntil(c)) {
      // Still good: this call goes on with it while one refresh runs for the calls after it.
      this.refresh().catch(() => {})
      return c.value
    }
    return (await this.refresh()).value
  }

  private refresh(): Promise<Expiring<T>> {
    this.inflight ??= this.fetchValue()
      .then((v) => {
        this.current = v
        return v
      })
      .finally(() => {
        this.inflight = undefined
      })
    return this.inflight
  }
}

// Unknown, revoked or malformed-but-plausible keys (docs/security.md "Limits"): remembered
// apart from the verified-key cache, so a flood of random `sk-…` guesses costs one Postgres
// lookup each per TTL at most and can never evict a valid key from the positive cache.
import { TtlLru } from '../lib/lru.ts'

export class UnknownKeys {
  private readonly misses: TtlLru<string, true>

  constructor(
    private readonly ttlMs: number,
    size = 10_000,
    now: () => number = Date.now,
  ) {
    this.misses = new TtlLru(size, now)
  }

  has(hash: string): boolean {
    return this.misses.get(hash) === true
  }

  add(hash: string): void {
    if (this.ttlMs > 0) this.misses.set(hash, true, this.ttlMs)
  }

  /** Forget every miss (a user was enabled: their keys were misses while disabled). */
  clear(): void {
    this.misses.deleteWhere(() => true)
  }
}

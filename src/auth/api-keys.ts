// API keys (docs/api.md "Authentication"): `sk-` + 40 base62 characters, stored as SHA-256 + display prefix.
// Verified keys are cached in-process for KEY_CACHE_TTL_MS, so a warm request touches Postgres
// zero times; a revocation therefore takes effect on other instances within that TTL (and at
// once on the instance that revoked it). While Postgres is unreachable an expired entry is
// served stale (docs/operations.md "Postgres unreachable"); a key never seen gets a 503.
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { apiKeys, users } from '../db/schema/index.ts'
import { base62, sha256Hex } from '../lib/ids.ts'
import { withDeadline } from '../lib/deadline.ts'
import { TtlLru } from '../lib/lru.ts'
import { ipMatcher } from '../lib/ip.ts'
import type { LimitReset } from '../billing/spend-period.ts'
import { modelMatcher } from './model-globs.ts'
import { UnknownKeys } from './unknown-keys.ts'

/** After a failed revalidation, a stale entry is trusted this long before Postgres is asked again. */
const STALE_RETRY_MS = 1_000

export interface KeyPrincipal {
  keyId: string
  userId: string
  limitMicros: bigint | null
  rpm: number
  serviceMode: string
  /** epoch ms, or null */
  expiresAt: number | null
  /** Whether the key may call a model (its allowlist, docs/api.md "Key settings"). */
  allowsModel: (slug: string) => boolean
  /** Whether the client address may use the key; null = any address. */
  allowsIp: ((ip: string | undefined) => boolean) | null
  /** Tokens per minute; null = none. */
  tpm: number | null
  /** Calls in flight at once; null = none. */
  maxConcurrent: number | null
  /** The period its `limitMicros` resets on; null = a lifetime limit. */
  limitReset: LimitReset | null
}

export function generateApiKey(): { secret: string; hash: string; prefix: string } {
  const secret = `sk-${base62(40)}`
  return { secret, hash: sha256Hex(secret), prefix: secret.slice(0, 10) }
}

/** The key from `Authorization: Bearer` or `x-api-key` (docs/api.md "Authentication"). */
export function keyFromHeaders(headers: Headers): string | undefined {
  const auth = headers.get('authorization')
  if (auth && auth.length > 7 && auth.slice(0, 7).toLowerCase() === 'bearer ') return auth.slice(7).trim()
  return headers.get('x-api-key')?.trim() || undefined
}

export class ApiKeyAuth {
  private readonly cache: TtlLru<string, KeyPrincipal | null>
  /** Requests answered from an expired entry because Postgres could not be asked (a counter). */
  staleServed = 0
  private readonly unknown: UnknownKeys
  /** Lookups under way, by key hash: the calls of a key that arrive before its lookup answers share it. */
  private readonly loading = new Map<string, Promise<KeyPrincipal | null>>()

  constructor(
    private readonly db: Db,
    private readonly ttlMs: number,
    private readonly defaultRpm: number,
    private readonly now: () => number = Date.now,
    /** Longest wait for the key lookup before it counts as failed (0 = no bound). */
    private readonly lookupTimeoutMs = 0,
  ) {
    this.cache = new TtlLru(50_000, now)
    this.unknown = new UnknownKeys(ttlMs, 10_000, now)
  }

  /** The principal for a presented secret, or undefined when invalid, revoked or expired. */
  async verify(secret: string | undefined): Promise<KeyPrincipal | undefined> {
    if (!secret?.startsWith('sk-') || secret.length > 200) return undefined
    const hash = sha256Hex(secret)
    if (this.unknown.has(hash)) return undefined
    const cached = this.cache.peek(hash)
    let principal = cached?.fresh ? cached.value : undefined
    if (principal === undefined) {
      try {
        principal = await this.lookup(hash)
        // Misses live in their own cache (unknown-keys.ts): they cannot evict verified keys.
        if (principal === null) this.unknown.add(hash)
        else if (this.ttlMs > 0) this.cache.set(hash, principal, this.ttlMs)
      } catch (err) {
        if (!cached) throw err
        principal = cached.value
        this.staleServed++
        this.cache.set(hash, principal, STALE_RETRY_MS)
      }
    }
    if (principal === null) return undefined
    if (principal.expiresAt !== null && principal.expiresAt <= this.now()) return undefined
    return principal
  }

  /** Drop a key from this instance's cache at once (revocation, limit change). */
  invalidate(keyId: string): void {
    this.cache.deleteWhere((p) => p?.keyId === keyId)
  }

  /** Drop every key of a user from this instance's cache at once (user disabled or enabled).
   *  Refusals are cached without a user, so they are all dropped too: an enabled user's keys work at once. */
  invalidateUser(userId: string): void {
    this.cache.deleteWhere((p) => p === null || p.userId === userId)
    this.unknown.clear()
  }

  /**
   * One lookup per key at a time, however many of its calls are waiting (a burst of a new or
   * expired key is one query, not one per call: docs/operations.md "Bursts on a cold key").
   */
  private lookup(hash: string): Promise<KeyPrincipal | null> {
    const running = this.loading.get(hash)
    if (running) return running
    const started = withDeadline(this.load(hash), this.lookupTimeoutMs, 'API key lookup').finally(() => this.loading.delete(hash))
    this.loading.set(hash, started)
    return started
  }

  private async load(hash: string): Promise<KeyPrincipal | null> {
    // A disabled user's keys are refused like revoked ones (admin API "disable").
    const [found] = await this.db
      .select({ key: apiKeys, disabledAt: users.disabledAt })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(eq(apiKeys.keyHash, hash))
      .limit(1)
    const row = found?.key
    if (!row || row.revokedAt !== null || found.disabledAt !== null) return null
    return {
      keyId: row.id,
      userId: row.userId,
      limitMicros: row.limitMicros,
      rpm: row.rpm ?? this.defaultRpm,
      serviceMode: row.serviceMode,
      expiresAt: row.expiresAt?.getTime() ?? null,
      allowsModel: modelMatcher(row.models ?? null),
      allowsIp: row.ipAllowlist ? ipMatcher(row.ipAllowlist) : null,
      tpm: row.tpm ?? null,
      maxConcurrent: row.maxConcurrent ?? null,
      limitReset: row.limitReset ?? null,
    }
  }
}

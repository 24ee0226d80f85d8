// The in-process catalog snapshot the hot path reads (no database on a warm request). Reloaded
// from Postgres on an interval, so catalog changes reach every instance.
import { readFileSync } from 'node:fs'
import { asc } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { gateways, modelRoutes, models, routeSwitches } from '../db/schema/index.ts'
import { isPriced, type Pricing } from '../billing/pricing.ts'
import type { Gateway, GatewayProtocol, ModelKind, Route, UpstreamAuth } from '../core/gateway.ts'
import type { AuthSpec } from '../providers/auth/spec.ts'
import { type AuthFile, resolveAuth } from './gateway-auth.ts'
import { resolvePolicy, type PolicyFile } from '../routing/policy.ts'

export interface CatalogModel {
  id: string
  name: string
  description: string
  provider: string
  family: string
  contextWindow: number
  /** `embedding`: served at POST /v1/embeddings only, listed with the capability `embeddings`. */
  kind: ModelKind
  capabilities: string[]
  pricing: Pricing
  deprecated: boolean
  /** epoch seconds */
  created: number
  /** Servable routes only (enabled gateway of a protocol this build speaks), in catalog order. */
  routes: Route[]
  /** Public slugs tried after every route failed (docs/failover.md "Model fallbacks"). */
  fallbacks: string[]
}

/** What /v1/models and the public catalog list for every embedding model (docs/api.md "Embeddings"). */
const EMBEDDING_CAPABILITIES = ['embeddings']

/** Embeddings are served by `openai-chat` gateways (their /embeddings path) only. */
export const serves = (kind: ModelKind, protocol: GatewayProtocol): boolean => kind === 'chat' || protocol === 'openai-chat'

type RouteOptions = Partial<Pick<Route, 'priority' | 'weight' | 'rpm' | 'tpm'>>

/** A stored route as the router sees it: without a priority it keeps its catalog position. */
function routeOf(gateway: Gateway, upstreamModel: string, position: number, o: RouteOptions | null): Route {
  const route: Route = { gateway, upstreamModel, priority: o?.priority ?? position, weight: o?.weight ?? 1 }
  if (o?.rpm) route.rpm = o.rpm
  if (o?.tpm) route.tpm = o.tpm
  return route
}

export type Lookup =
  | { ok: true; model: CatalogModel }
  | { ok: false; reason: 'unknown' }
  /** The model exists but cannot serve; its catalog fallbacks still may (docs/failover.md "Model fallbacks"). */
  | { ok: false; reason: 'unavailable'; model: CatalogModel }

/** Builds a gateway's auth from its resolved spec (providers/auth GatewayAuths); rejects when the key cannot be used. */
export interface CatalogAuth {
  for(gatewayId: string, spec: AuthSpec): Promise<UpstreamAuth>
  /** Reads a `file:` reference (default: the file system). */
  readText?: (path: string) => string
}

/** The auth of a gateway whose `auth` cannot work: each call fails over, naming the problem in the log. */
const brokenAuth = (type: UpstreamAuth['type'], problem: string): UpstreamAuth => ({
  type,
  authorize: async () => ({ ok: false, status: 401, detail: problem }),
})

const readText = (path: string) => readFileSync(path, 'utf8')

export class Catalog {
  private byId = new Map<string, CatalogModel>()
  private unresolved: { id: string; ref: string }[] = []
  private authIssues: string[] = []

  constructor(
    private readonly db: Db,
    private readonly resolveSecret: (ref: string | undefined) => string | undefined,
    private readonly protocols: ReadonlySet<GatewayProtocol>,
    private readonly auths?: CatalogAuth,
  ) {}

  /** A gateway's auth, built from its stored `auth` with references resolved; a problem is recorded and its calls fail over. */
  private async authOf(id: string, stored: AuthFile, problems: string[]): Promise<UpstreamAuth> {
    const resolved = resolveAuth(id, stored, { secret: this.resolveSecret, readText: this.auths?.readText ?? readText })
    const problem = !resolved.ok
      ? resolved.problem
      : !this.auths
        ? `gateway ${id}: auth ${stored.type} is not available in this process`
        : undefined
    if (problem || !resolved.ok || !this.auths) {
      problems.push(problem!)
      return brokenAuth(stored.type, problem!)
    }
    try {
      return await this.auths.for(id, resolved.spec)
    } catch (e) {
      const line = `gateway ${id}: auth ${stored.type}: ${e instanceof Error ? e.message : String(e)}`
      problems.push(line)
      return brokenAuth(stored.type, line)
    }
  }

  async refresh(): Promise<void> {
    const [gw, ms, rs, off] = await Promise.all([
      this.db.select().from(gateways),
      this.db.select().from(models),
      this.db.select().from(modelRoutes).orderBy(asc(modelRoutes.modelId), asc(modelRoutes.position)),
      this.db.select().from(routeSwitches),
    ])
    // Routes an operator switched off at run time (docs/operators.md "Models and gateways").
    const switchedOff = new Set(off.map((s) => `${s.modelId}\n${s.gatewayId}\n${s.upstreamModel}`))
    const problems: string[] = []
    const auths = new Map<string, UpstreamAuth>()
    for (const g of gw) if (g.auth && g.enabled) auths.set(g.id, await this.authOf(g.id, g.auth as AuthFile, problems))
    const gateById = new Map(
      gw.map((g) => [
        g.id,
        {
          auth: auths.get(g.id),
          id: g.id,
          protocol: g.protocol,
          baseUrl: g.baseUrl,
          apiKey: this.resolveSecret(g.apiKeyRef ?? undefined),
          timeoutMs: g.timeoutMs,
          enabled: g.enabled,
          policy: resolvePolicy(g.policy as PolicyFile | null),
          headers: this.resolveAll(g.headers),
          query: this.resolveAll(g.query),
        },
      ]),
    )
    // A key, header or query value naming a variable this process does not have (warned at start and reload).
    this.unresolved = gw
      .filter((g) => g.enabled)
      .flatMap((g) => [g.apiKeyRef, ...Object.values(g.headers ?? {}), ...Object.values(g.query ?? {})].map((ref) => ({ id: g.id, ref })))
      .filter((u): u is { id: string; ref: string } => !!u.ref?.startsWith('env:') && this.resolveSecret(u.ref) === undefined)
    const next = new Map<string, CatalogModel>()
    for (const m of ms) {
      next.set(m.id, {
        id: m.id,
        name: m.name,
        description: m.description,
        provider: m.provider,
        family: m.family,
        contextWindow: m.contextWindow,
        kind: m.kind,
        capabilities: m.kind === 'embedding' ? EMBEDDING_CAPABILITIES : m.capabilities,
        pricing: { input: m.priceInput, output: m.priceOutput, cacheRead: m.priceCacheRead, cacheWrite: m.priceCacheWrite },
        deprecated: m.deprecated,
        created: Math.floor(m.createdAt.getTime() / 1000),
        routes: [],
        fallbacks: m.fallbacks ?? [],
      })
    }
    for (const r of rs) {
      const gateway = gateById.get(r.gatewayId)
      const model = next.get(r.modelId)
      if (switchedOff.has(`${r.modelId}\n${r.gatewayId}\n${r.upstreamModel}`)) continue
      if (model && gateway?.enabled && this.protocols.has(gateway.protocol) && serves(model.kind, gateway.protocol))
        model.routes.push(routeOf(gateway, r.upstreamModel, r.position, r.options as RouteOptions | null))
    }
    this.byId = next
    this.authIssues = problems
  }

  /** Enabled gateways whose auth cannot work (a key file unreadable or malformed, a reference unset): one line each. */
  authProblems(): readonly string[] {
    return this.authIssues
  }

  /** A gateway's `headers` / `query` with `env:` references resolved; an unset variable drops the entry. */
  private resolveAll(entries: Record<string, string> | null): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [name, ref] of Object.entries(entries ?? {})) {
      const value = this.resolveSecret(ref)
      if (value !== undefined) out[name] = value
    }
    return out
  }

  /** Enabled gateways whose `env:NAME` key reference names a variable unset in this process. */
  unresolvedSecrets(): readonly { id: string; ref: string }[] {
    return this.unresolved
  }

  /** Available = not deprecated, priced, and at least one servable route. */
  static available(m: CatalogModel): boolean {
    return !m.deprecated && isPriced(m.pricing, m.kind) && m.routes.length > 0
  }

  lookup(slug: string): Lookup {
    const model = this.byId.get(slug)
    if (!model) return { ok: false, reason: 'unknown' }
    return Catalog.available(model) ? { ok: true, model } : { ok: false, reason: 'unavailable', model }
  }

  /** Every model of the snapshot, available or not. */
  all(): CatalogModel[] {
    return [...this.byId.values()]
  }

  /** Available models, sorted by id. */
  list(): CatalogModel[] {
    return [...this.byId.values()].filter(Catalog.available).sort((a, b) => a.id.localeCompare(b.id))
  }
}

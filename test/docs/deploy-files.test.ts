// deploy/ (docs/deploy.md) cannot run here without Docker, so its files are checked against the
// code: compose services and health checks, the instances' environment (only variables config.ts
// reads or the catalog references), TRUSTED_PROXIES = the proxy's address, Redis persistence, a
// stop timeout longer than the drain, the Caddyfile's upstreams and health check, .env.example.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { loadConfig } from '../../src/config.ts'
import { ROOT } from './blocks.ts'
import { CONFIG_VARIABLES } from './env-names.ts'

const read = (p: string) => readFileSync(`${ROOT}${p}`, 'utf8')
const compose = Bun.YAML.parse(read('deploy/compose.yaml')) as any
const caddy = read('deploy/Caddyfile')
const INSTANCES = ['tollgate-1', 'tollgate-2']

describe('deploy/ files', () => {
  test('compose: PostgreSQL, Redis, two instances and a proxy; databases with health checks', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['postgres', 'proxy', 'redis', 'tollgate-1', 'tollgate-2'])
    expect(compose.services.postgres.healthcheck.test.join(' ')).toContain('pg_isready')
    expect(compose.services.redis.healthcheck.test).toContain('ping')
    for (const name of INSTANCES) {
      const s = compose.services[name]
      expect(s.build).toBe('..')
      expect(s.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } })
    }
    // The image checks /healthz itself.
    expect(read('Dockerfile')).toMatch(/HEALTHCHECK[\s\S]*\/healthz/)
  })

  test('instances: a valid configuration made only of variables Tollgate reads or the catalog references', () => {
    const refs = new Set<string>(JSON.parse(read('deploy/catalog.json')).gateways.map((g: any) => g.apiKey.slice(4)))
    for (const name of INSTANCES) {
      const env = compose.services[name].environment as Record<string, string>
      for (const k of Object.keys(env)) expect(CONFIG_VARIABLES.has(k) || refs.has(k)).toBe(true)
      for (const r of refs) expect(Object.keys(env)).toContain(r)
      // Interpolated as compose would with a filled-in .env.
      const filled = Object.fromEntries(
        Object.entries(env).map(([k, v]) => [
          k,
          String(v).replace(/\$\{(\w+)[^}]*\}/g, (_m, n) =>
            n === 'ADMIN_TOKEN' ? 'a'.repeat(48) : n === 'PUBLIC_URL' ? 'https://llm.example.com' : 'x',
          ),
        ]),
      )
      const config = loadConfig(filled)
      expect(new URL(config.databaseUrl!).hostname).toBe('postgres')
      expect(new URL(config.redisUrl!).hostname).toBe('redis')
      expect(config.trustedProxies).toEqual([compose.services.proxy.networks.default.ipv4_address])
      // The orchestrator waits longer than the drain before SIGKILL.
      expect(Number.parseInt(compose.services[name].stop_grace_period, 10) * 1000).toBeGreaterThan(config.shutdownGraceMs)
      const mount = compose.services[name].volumes.find((v: string) => v.startsWith('./catalog.json:'))
      expect(mount.split(':')[1]).toBe(config.catalogFile)
    }
  })

  test('the proxy address is inside the compose network', () => {
    const subnet = compose.networks.default.ipam.config[0].subnet as string
    expect(compose.services.proxy.networks.default.ipv4_address.startsWith(subnet.split('.').slice(0, 3).join('.') + '.')).toBe(true)
  })

  test('Redis runs with AOF and noeviction (docs/deploy.md "Redis persistence")', () => {
    const cmd = compose.services.redis.command.join(' ')
    expect(cmd).toContain('--appendonly yes')
    expect(cmd).toContain('--maxmemory-policy noeviction')
    expect(compose.services.redis.volumes[0]).toEndWith(':/data')
  })

  test('Caddyfile: both instances on the default port, health-checked on /readyz, streams flushed', () => {
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddy)![1]!.trim().split(/\s+/)
    expect(upstreams).toEqual(INSTANCES.map((n) => `${n}:${loadConfig({}).port}`))
    expect(caddy).toMatch(/health_uri \/readyz/)
    expect(caddy).toMatch(/flush_interval -1/)
    expect(compose.services.proxy.volumes).toContain('./Caddyfile:/etc/caddy/Caddyfile:ro')
  })

  test('.env.example names every variable the compose file takes from the environment', () => {
    const wanted = new Set([...read('deploy/compose.yaml').matchAll(/\$\{(\w+)/g)].map((m) => m[1]!))
    const offered = new Set([...read('deploy/.env.example').matchAll(/^(\w+)=/gm)].map((m) => m[1]!))
    expect([...wanted].sort()).toEqual([...offered].sort())
  })
})

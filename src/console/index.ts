// The console: /api/auth, /api/keys, /api/wallet, /api/logs, /api/public, top-up webhooks.
// Per-IP limits (120/min on /api/*, 30/15 min on /api/auth/*) use the shared store, so they hold
// across instances; state-changing calls must be same-origin.
import { Elysia } from 'elysia'
import { renderConsoleError } from '../http/console-error.ts'
import type { InferenceDeps } from '../inference/deps.ts'
import { authRoutes } from './auth-routes.ts'
import { clientIp, isHttps } from './client-ip.ts'
import { API_LIMIT, AUTH_LIMIT, checkSameOrigin, limitIp } from './guards.ts'
import { keysRoutes } from './keys-routes.ts'
import type { PaymentProvider } from './payments/provider.ts'
import { sandboxProvider } from './payments/sandbox.ts'
import { stripeProvider } from './payments/stripe.ts'
import { publicRoutes } from './public-routes.ts'
import { walletRoutes } from './wallet-routes.ts'
import { webhookRoutes } from './webhook-routes.ts'

type Server = { requestIP(req: Request): { address: string } | null } | null

export function consoleRoutes(deps: InferenceDeps) {
  const { config } = deps
  const baseUrl = (req: Request) => config.publicUrl?.replace(/\/+$/, '') ?? new URL(req.url).origin
  const providers = new Map<string, PaymentProvider>()
  if (config.stripe) providers.set('stripe', stripeProvider(config.stripe))
  if (config.sandboxPayments) providers.set('sandbox', sandboxProvider(config.sandboxPayments))
  // Whether the client reached us over TLS, decided once per request in the guard below.
  const tls = new WeakMap<Request, boolean>()
  const secure = (req: Request) => tls.get(req) === true || (config.publicUrl?.startsWith('https:') ?? false)

  const guarded = new Elysia()
    .onError(({ code, error }) => renderConsoleError(code, error))
    .onBeforeHandle(async ({ request, server, set }) => {
      const url = new URL(request.url)
      const peer = (server as Server)?.requestIP(request)?.address
      const ip = clientIp(request.headers, peer, config.trustedProxies)
      tls.set(request, isHttps(url, request.headers, peer, config.trustedProxies))
      const now = deps.now()
      Object.assign(set.headers, await limitIp(deps.store, `api:${ip}`, API_LIMIT, now))
      if (url.pathname.startsWith('/api/auth/') && request.method === 'POST') await limitIp(deps.store, `auth:${ip}`, AUTH_LIMIT, now)
      checkSameOrigin(request, url, config.publicUrl)
    })
    .use(authRoutes(deps, secure))
    .use(keysRoutes(deps))
    .use(walletRoutes(deps, providers, baseUrl))
    .use(publicRoutes(deps))

  return new Elysia()
    .onError(({ code, error }) => renderConsoleError(code, error))
    .use(guarded)
    .use(webhookRoutes(deps, providers, config.sandboxPayments?.secret))
}

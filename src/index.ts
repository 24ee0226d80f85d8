// Entry: loadConfig → runtime → createApp(deps).listen; graceful shutdown on SIGTERM/SIGINT.
import { createApp, type AppState } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { StartupError, startupFailure } from './lib/startup-error.ts'
import { createRuntime } from './runtime.ts'
import { serveMetrics } from './observability/metrics-route.ts'
import { defaultSoftLimit, startMemoryLimit } from './lib/memory-limit.ts'
import { readFileSync } from 'node:fs'

const readIfThere = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/** A start-up failure is one line on stderr and exit code 1 (config errors: 2). */
function fail(e: unknown): never {
  if (!(e instanceof StartupError)) throw e
  console.error(`tollgate: ${e.message}`)
  process.exit(1)
}

export async function start(env: Record<string, string | undefined> = process.env) {
  let config
  try {
    config = loadConfig(env)
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`tollgate: ${e.message}`)
      process.exit(2)
    }
    throw e
  }
  const runtime = await createRuntime(config).catch(fail)
  const state: AppState = { draining: false }
  const app = createApp(runtime.deps, state)
  try {
    // Elysia turns SO_REUSEPORT on by default: a second process on a taken port would then share
    // it silently (and answer half of the requests). Off, a taken port is an error.
    app.listen({
      port: config.port,
      hostname: config.host,
      // The body limit is the app's (http/body.ts, a 413 in each surface's envelope); Bun's own
      // would answer a bare 413 without x-request-id, so it is out of the way.
      maxRequestBodySize: Number.MAX_SAFE_INTEGER,
      idleTimeout: 60,
      reusePort: false,
    })
  } catch (e) {
    await runtime.stop().catch(() => {})
    fail(startupFailure('listen', e, { host: config.host, port: config.port }))
  }
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${app.server!.port}`
  const metricsServer = config.metricsPort === undefined ? undefined : serveMetrics(runtime.deps.metrics, config, config.metricsPort)
  if (metricsServer) runtime.deps.log.info('metrics listening', { port: metricsServer.port })
  // Garbage of streams to slow clients is collected before it lifts the resident size (docs/drain.md "Memory").
  const softLimit = config.memorySoftLimitBytes ?? defaultSoftLimit(readIfThere)
  const stopMemoryLimit = softLimit > 0 ? startMemoryLimit(softLimit, () => runtime.deps.metrics.m.memoryCollections.inc()) : undefined
  if (stopMemoryLimit) runtime.deps.log.info('soft memory limit', { mb: Math.round(softLimit / 1024 / 1024) })
  // Always printed, whatever LOG_LEVEL: operators and tools wait for this line.
  console.log(`tollgate listening on ${url} (database: ${runtime.database.kind}, store: ${runtime.deps.store.kind})`)

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    // The drain (docs/drain.md): readiness fails and admission stops at once; every admitted
    // call may finish within the grace; what is still open then is cut with the protocol's
    // error and settled; settlements are flushed to Postgres; exit.
    const { inflight, log } = runtime.deps
    state.draining = true
    inflight.draining = true
    log.info('shutting down', { signal, calls: inflight.calls })
    // The listener stays open while draining: a load balancer still routing here gets 503 from
    // /readyz and a 503 with Retry-After for new calls, not refused connections.
    if (!(await inflight.callsEnded(config.shutdownGraceMs))) {
      log.warn('grace period over; cutting open calls', { calls: inflight.calls })
      inflight.cut.fire()
      await inflight.callsEnded(2_000)
    }
    // Settled calls may still be writing their answer (or the error frame just queued): give
    // readers up to a second before connections are closed.
    for (let i = 0; i < 20 && app.server!.pendingRequests > 0; i++) await Bun.sleep(50)
    stopMemoryLimit?.()
    void metricsServer?.stop(true)
    await app.server!.stop(true)
    await runtime.stop()
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
  return { app, runtime, url }
}

if (import.meta.main) await start()

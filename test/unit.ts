// The unit set (`bun run test:unit`, README "Tests"): the tests that need no services — no
// PostgreSQL, Redis, child process, socket or browser — and run in about two seconds. A folder
// (trailing slash) takes every test under it; test/unit.test.ts checks that nothing in the set
// reaches a service. Run directly, this file runs the set.

export const UNIT_TESTS = [
  'test/architecture.test.ts',
  'test/admin/reports/latency.test.ts',
  'test/admin/reports/period.test.ts',
  'test/admin/reports/upstream-cost.test.ts',
  'test/admin/route-cost.test.ts',
  'test/unit.test.ts',
  'test/config.test.ts',
  'test/bench/',
  'test/auth/key-settings.test.ts',
  'test/auth/model-globs.test.ts',
  'test/billing/bill.test.ts',
  'test/billing/outbox-record.test.ts',
  'test/billing/pricing.test.ts',
  'test/billing/settlement.test.ts',
  'test/billing/spend-period.test.ts',
  'test/console/http/pagination.test.ts',
  'test/console/http/same-origin.test.ts',
  'test/console/payments/',
  'test/console/topup/',
  'test/console/webhooks/',
  'test/console-ui/client/',
  'test/docs/api-contract.test.ts',
  'test/docs/citations.test.ts',
  'test/docs/deploy-files.test.ts',
  'test/http/body.test.ts',
  'test/http/client.test.ts',
  'test/http/console-error.test.ts',
  'test/http/surface-headers.test.ts',
  'test/inference/call-life.test.ts',
  'test/inference/error-response.test.ts',
  'test/inference/stream.test.ts',
  'test/lib/',
  'test/observability/hot-metrics.test.ts',
  'test/protocols/',
  'test/providers/anthropic-messages/',
  'test/providers/openai-chat/',
  'test/providers/openai-responses/',
  'test/providers/registry.test.ts',
  'test/providers/transport/byte-queue.test.ts',
  'test/providers/transport/chunked.test.ts',
  'test/routing/breakers.test.ts',
  'test/routing/failover-loop.test.ts',
  'test/routing/route-load.test.ts',
  'test/routing/first-token.test.ts',
  'test/routing/retry-policy.test.ts',
  'test/store/turn-batch.test.ts',
  'test/translation/mapping.test.ts',
  'test/translation/stream-grammar.test.ts',
]

if (import.meta.main) {
  const run = Bun.spawn(['bun', 'test', '--timeout', '30000', ...UNIT_TESTS, ...process.argv.slice(2)], {
    cwd: new URL('..', import.meta.url).pathname,
    stdio: ['inherit', 'inherit', 'inherit'],
  })
  process.exit(await run.exited)
}

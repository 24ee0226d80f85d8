# Tollgate on the official Bun image; runs as the image's non-root `bun` user.
FROM oven/bun:1 AS deps
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile --production

FROM oven/bun:1
WORKDIR /app
# Bun's fetch runs at most 256 requests at once and queues the rest; a gateway holding thousands
# of upstream streams needs more (docs/deploy.md "Upstream concurrency").
ENV NODE_ENV=production PORT=8080 BUN_CONFIG_MAX_HTTP_REQUESTS=16384
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY src ./src
COPY drizzle ./drizzle
RUN mkdir -p /app/data && chown bun:bun /app/data
USER bun
EXPOSE 8080
# /healthz answers while the process is up; /readyz also checks Postgres and the store.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD bun -e "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
STOPSIGNAL SIGTERM
CMD ["bun", "src/index.ts"]

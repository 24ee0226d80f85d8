// One-line JSON logs on stderr. Upstream detail (names, hosts, raw errors) goes here, keyed by
// request id, never into a client body (docs/api.md "Upstream identity").

type Level = 'debug' | 'info' | 'warn' | 'error'
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

/** bigint as a string; an Error (e.g. a `cause`) as its name and message — JSON.stringify would write {}. */
function replacer(_key: string, v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString()
  if (v instanceof Error) return { name: v.name, message: v.message, ...(v.cause !== undefined ? { cause: v.cause } : {}) }
  return v
}

export function createLogger(level: Level = 'info', sink: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const min = ORDER[level]
  const emit = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < min) return
    sink(JSON.stringify({ t: new Date().toISOString(), level: lvl, msg, ...fields }, replacer))
  }
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') }
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }

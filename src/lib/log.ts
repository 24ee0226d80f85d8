// One-line JSON logs on stderr. Upstream detail (names, hosts, raw errors) goes here, keyed by
// request id, never into a client body (SPEC "Errors").

type Level = 'debug' | 'info' | 'warn' | 'error'
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

export function createLogger(level: Level = 'info', sink: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const min = ORDER[level]
  const emit = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < min) return
    sink(JSON.stringify({ t: new Date().toISOString(), level: lvl, msg, ...fields }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)))
  }
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') }
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }

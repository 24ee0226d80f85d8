// Start-up failures as one line that names the thing and the fix (docs/deploy.md "Start-up
// failures"). Pure: turns a driver/file/socket error into a StartupError; index.ts prints it.
// Never echoes a password: URLs are shown as host:port/name only.
import { UNREACHABLE_CODES } from './outage.ts'

export class StartupError extends Error {}

type Thing = 'database' | 'redis' | 'catalog' | 'listen'

function where(url: string | undefined): string {
  try {
    const u = new URL(url ?? '')
    return `${u.hostname}:${u.port || (u.protocol.startsWith('redis') ? '6379' : '5432')}`
  } catch {
    return 'the configured address'
  }
}

const codeOf = (err: unknown): string => {
  const e = err as { code?: unknown; errno?: unknown } | null | undefined
  return String(e?.code ?? e?.errno ?? '')
}
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!

function database(err: unknown, url: string | undefined): string {
  const code = codeOf(err)
  // Another process holds the embedded directory: its own line says which and what to do (db/dir-lock.ts).
  if (err instanceof Error && err.name === 'DirectoryHeld') return err.message
  if (url === undefined || url.startsWith('memory:') || url.startsWith('file:'))
    return `embedded database could not open (${messageOf(err)}): check that the data directory is writable, or set DATABASE_URL`
  const path = (() => {
    try {
      return decodeURIComponent(new URL(url).pathname.slice(1))
    } catch {
      return ''
    }
  })()
  if (UNREACHABLE_CODES.has(code)) return `database unreachable at ${where(url)} (${code}): start PostgreSQL there or fix DATABASE_URL`
  if (code === '3D000') return `database "${path}" does not exist on ${where(url)}: create it (createdb ${path}) or fix DATABASE_URL`
  if (code === '28000' || code === '28P01')
    return `database at ${where(url)} refused the login (${messageOf(err)}): create the role or fix the user/password in DATABASE_URL`
  return `database at ${where(url)} failed at start (${messageOf(err)}): check DATABASE_URL and the server's log`
}

function redis(err: unknown, url: string | undefined): string {
  const code = codeOf(err)
  const text = messageOf(err)
  if (UNREACHABLE_CODES.has(code))
    return `Redis unreachable at ${where(url)} (${code}): start Redis there or fix REDIS_URL (unset it to run one instance on the in-process store)`
  if (/NOAUTH|WRONGPASS|invalid password/i.test(text)) return `Redis at ${where(url)} refused authentication: fix the password in REDIS_URL`
  return `Redis at ${where(url)} failed at start (${text}): check REDIS_URL`
}

function catalog(err: unknown, file: string | undefined): string {
  if (codeOf(err) === 'ENOENT') return `CATALOG_FILE ${file} does not exist: fix the path or unset CATALOG_FILE`
  if (err instanceof SyntaxError) return `CATALOG_FILE ${file} is not valid JSON (${messageOf(err)}): fix the file (docs/providers.md)`
  return `CATALOG_FILE ${file} is invalid: ${messageOf(err).replace(/^catalog: /, '')} (docs/providers.md)`
}

function listen(err: unknown, at: { host: string; port: number }): string {
  const code = codeOf(err)
  if (code === 'EADDRINUSE') return `port ${at.port} on ${at.host} is already in use: stop the other process or set PORT to a free port`
  if (code === 'EACCES') return `not allowed to listen on port ${at.port}: use a port above 1023 or set PORT`
  if (code === 'EADDRNOTAVAIL') return `HOST ${at.host} is not an address of this machine: fix HOST`
  return `could not listen on ${at.host}:${at.port} (${messageOf(err)}): check HOST and PORT`
}

/** A StartupError whose message is the one line to print. `ctx` is the URL / file / address involved. */
export function startupFailure(
  thing: Thing,
  err: unknown,
  ctx: { url?: string; file?: string; host?: string; port?: number } = {},
): StartupError {
  if (err instanceof StartupError) return err
  if (thing === 'database') return new StartupError(database(err, ctx.url))
  if (thing === 'redis') return new StartupError(redis(err, ctx.url))
  if (thing === 'catalog') return new StartupError(catalog(err, ctx.file))
  return new StartupError(listen(err, { host: ctx.host ?? '0.0.0.0', port: ctx.port ?? 0 }))
}

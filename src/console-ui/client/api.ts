// The console API client: same-origin JSON with the session cookie. Errors carry the API's
// envelope ({error:{code,message}}); a 401 on a signed-in call sends the person to sign in.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

let onSignedOut: () => void = () => {}
export const whenSignedOut = (f: () => void) => void (onSignedOut = f)

export async function api<T = unknown>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let res: Response
  try {
    res = await fetch(path, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers:
        init.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached. Check your connection and try again.')
  }
  const body: unknown = await res.json().catch(() => null)
  if (res.ok) return body as T
  const err = (body as { error?: { code?: string; message?: string } } | null)?.error
  const e = new ApiError(res.status, err?.code ?? 'ERROR', err?.message ?? `The server answered ${res.status}.`)
  if (res.status === 401 && !path.startsWith('/api/auth/')) onSignedOut()
  if (res.status === 429) throw new ApiError(429, e.code, 'Too many requests from this address; wait a minute and try again.')
  throw e
}

/** Query string from the set values only. */
export function qs(params: Record<string, string | number | undefined | null>): string {
  const p = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v))
  const s = p.toString()
  return s ? `?${s}` : ''
}

export interface Page<T> {
  items: T[]
  nextCursor: string | null
}

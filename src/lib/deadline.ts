// A bound on how long the request path waits for a backing service (docs/operations.md).

export class DeadlineError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} took longer than ${ms} ms`)
  }
}

/**
 * `p`, or a DeadlineError after `ms`. The work itself is not cancelled (a driver query keeps
 * its connection until the server answers or the socket dies); only the caller stops waiting.
 */
export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  if (!(ms > 0)) return p
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(what, ms)), ms)
  })
  return Promise.race([p, late]).finally(() => clearTimeout(timer))
}

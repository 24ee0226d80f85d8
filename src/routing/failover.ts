// Routes are tried in catalog order; the next one only on a retryable failure before the first
// byte (SPEC "What the service does" 4). All failed → 502 UPSTREAM_ERROR.
import { GatewayError } from '../core/errors.ts'
import type { Route } from '../core/gateway.ts'

export interface Served<T> {
  value: T
  route: Route
}

export async function withFailover<T>(
  routes: readonly Route[],
  attempt: (route: Route) => Promise<T>,
  onFailure: (route: Route, err: GatewayError) => void,
): Promise<Served<T>> {
  let last: GatewayError | undefined
  for (const route of routes) {
    try {
      return { value: await attempt(route), route }
    } catch (e) {
      const err = e instanceof GatewayError ? e : new GatewayError('UPSTREAM_ERROR', 'The upstream model failed.', { cause: e, retryable: true })
      onFailure(route, err)
      if (!err.retryable) throw err
      last = err
    }
  }
  throw new GatewayError('UPSTREAM_ERROR', 'Every upstream gateway for this model failed; try again shortly.', { cause: last })
}

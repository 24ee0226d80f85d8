// A route's upstream cost (docs/operators.md "Reports"): the catalog file's route `cost`, kept
// with the route's options, as nano-USD per 1M tokens like a model's own prices. Pure.
import { price, type RouteFile } from '../catalog/file.ts'

export interface RouteCost {
  input: bigint | null
  output: bigint | null
  cacheRead: bigint | null
  cacheWrite: bigint | null
}

/** The stored route options' `cost`, converted as the catalog converts prices; absent: all null. */
export function routeCost(options: unknown): RouteCost {
  const cost = (options as Partial<RouteFile> | null)?.cost
  const where = 'route cost'
  return {
    input: price(cost?.input, where),
    output: price(cost?.output, where),
    cacheRead: price(cost?.cacheRead, where),
    cacheWrite: price(cost?.cacheWrite, where),
  }
}

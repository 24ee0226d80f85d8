// GET /v1/models/{id} (docs/api.md "Models"): one model as GET /v1/models lists it — what the
// OpenAI SDK's models.retrieve(id) reads. Slugs hold `/` (`acme/chat-1`), sent raw or encoded as
// %2F (the SDK encodes path parameters), so the route is a wildcard and the id is decoded here. A
// model the list would not show (unknown, deprecated, unpriced, without a route, outside the
// key's allowlist) is 404.
import type { Config } from '../config.ts'
import { GatewayError } from '../core/errors.ts'
import type { Catalog } from './catalog.ts'
import { shapeA, shapeB } from './models-route.ts'

export function modelById(
  catalog: Pick<Catalog, 'lookup'>,
  rawId: string,
  shape: { b: boolean; serviceMode: string; config: Pick<Config, 'creditsPerUsd' | 'creditSymbol'> },
  allows: (slug: string) => boolean = () => true,
) {
  const id = decoded(rawId)
  const found = id === undefined || !allows(id) ? undefined : catalog.lookup(id)
  if (!found?.ok) throw new GatewayError('NOT_FOUND', `Model '${id ?? rawId}' does not exist.`, { param: 'model' })
  const list = shape.b ? shapeB([found.model], shape.serviceMode, shape.config) : shapeA([found.model])
  return list.data[0]!
}

function decoded(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw)
  } catch {
    return undefined
  }
}

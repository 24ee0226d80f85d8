// GET/POST /api/keys, PATCH/DELETE /api/keys/:id (docs/console.md "API keys"): the signed-in user's API keys.
import { Elysia, t } from 'elysia'
import { strictBody } from '../../http/strict-body.ts'
import type { ConsoleDeps } from '../deps.ts'
import { type ContextDeps, consoleContext, sessionRequired } from '../http/context.ts'
import { SESSION_SECURITY } from '../http/models.ts'
import { CreatedKey, CreateKey, KeyList, KeysQuery, KeyView, UpdateKey } from './model.ts'
import { changeKey, createKey, listKeys, revokeKey } from './service.ts'

const detail = (summary: string) => ({ tags: ['keys'], summary, security: SESSION_SECURITY })

export function keysFeature(deps: ContextDeps & Pick<ConsoleDeps, 'auth' | 'catalog'>) {
  return new Elysia({ prefix: '/api/keys' })
    .use(sessionRequired(deps))
    .use(consoleContext(deps))
    .get('', ({ user, query }) => listKeys(deps, user.id, query), {
      query: KeysQuery,
      response: { 200: KeyList },
      detail: detail('Your API keys, newest first: prefix, status, last use, spend vs limit'),
    })
    .post(
      '',
      async ({ user, body, set }) => {
        set.status = 201
        return createKey(deps, user.id, body)
      },
      {
        parse: 'json',
        ...strictBody(CreateKey),
        response: { 201: CreatedKey },
        detail: detail('Create a key; the secret is in this answer only'),
      },
    )
    .patch('/:id', ({ user, params, body }) => changeKey(deps, user.id, params.id, body), {
      parse: 'json',
      params: t.Object({ id: t.String({ maxLength: 100 }) }),
      ...strictBody(UpdateKey),
      response: { 200: KeyView },
      detail: detail('Change a key: absent members stay, null clears (docs/api.md "Key settings")'),
    })
    .delete('/:id', ({ user, params }) => revokeKey(deps, user.id, params.id), {
      params: t.Object({ id: t.String({ maxLength: 100 }) }),
      response: { 200: KeyView },
      detail: detail('Revoke a key: refused on /v1 at once here, within KEY_CACHE_TTL_MS elsewhere'),
    })
}

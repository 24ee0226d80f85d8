// The fake's OAuth 2.0 token endpoint (RFC 6749 §5), for gateways whose `auth` fetches a token:
// Google's JWT bearer grant (`tokenUrl: <fake>/token`) and Entra ID's client credentials grant
// (`tokenUrl: <fake>/<tenant>/oauth2/v2.0/token`). Any grant is accepted — nothing is verified —
// and answered with a bearer token of an hour, `fake-token-<n>`, which the fake then takes as it
// takes any credential. A script named for the model `token` (never `*`'s) may fail or delay it.
import type { ScriptedError } from '../reply.ts'
import { errorMessage, type Wire } from './wire.ts'

/** The model a token request is recorded and scripted under. */
export const TOKEN_MODEL = 'token'

const oauthError = (e: ScriptedError) => (e.status === 400 || e.status === 401 ? 'invalid_grant' : 'temporarily_unavailable')

export const oauthToken: Wire = {
  name: 'oauth-token',
  route: '/token  |  /{tenant}/oauth2/v2.0/token',
  matches: (path) => path.endsWith('/token'),
  form: true,
  read: (form: Record<string, string>) => ({ model: TOKEN_MODEL, stream: false, prompt: '', inputText: form.grant_type ?? '' }),
  json: (a) => ({ access_token: `fake-token-${a.id}`, token_type: 'Bearer', expires_in: 3600 }),
  frames: () => [],
  streamError: () => '',
  errorBody: (e) => ({ error: oauthError(e), error_description: errorMessage(e) }),
}

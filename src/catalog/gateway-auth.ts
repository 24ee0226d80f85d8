// A gateway's `auth` in the catalog (docs/providers.md "Cloud auth"): its file shape, the check of
// what each type needs (one line naming the gateway and the field), and, at each catalog load,
// its references resolved — `env:NAME` from the environment, `file:PATH` read from disk — into the
// spec the providers' auth is built from. A reference that cannot be resolved, or a key that cannot
// be used, is a problem named in one line at start and at reload; calls through that gateway fail
// over to the next route.
import { type Static, Type as t } from '@sinclair/typebox'
import type { GatewayProtocol } from '../core/gateway.ts'
import type { AuthSpec } from '../providers/auth/spec.ts'

export const AuthFile = t.Object({
  type: t.Union([t.Literal('aws-sigv4'), t.Literal('google-service-account'), t.Literal('azure-entra')]),
  region: t.Optional(t.String()),
  accessKeyId: t.Optional(t.String()),
  secretAccessKey: t.Optional(t.String()),
  sessionToken: t.Optional(t.String()),
  credentials: t.Optional(t.String()),
  tokenUrl: t.Optional(t.String({ pattern: '^https?://' })),
  tenantId: t.Optional(t.String()),
  clientId: t.Optional(t.String()),
  clientSecret: t.Optional(t.String()),
  scope: t.Optional(t.String()),
})
export type AuthFile = Static<typeof AuthFile>

const FIELDS: Record<AuthFile['type'], { required: (keyof AuthFile)[]; optional: (keyof AuthFile)[] }> = {
  'aws-sigv4': { required: ['region'], optional: ['accessKeyId', 'secretAccessKey', 'sessionToken'] },
  'google-service-account': { required: ['credentials'], optional: ['tokenUrl'] },
  'azure-entra': { required: ['tenantId', 'clientId', 'clientSecret'], optional: ['tokenUrl', 'scope'] },
}

/** Bedrock takes SigV4 or its own API key (a bearer token), never another cloud's token. */
const isBedrock = (p: GatewayProtocol) => p.startsWith('bedrock-')

/** What is wrong with a gateway's auth as written, in one line; undefined when nothing is. */
export function authShapeProblem(g: { id: string; protocol: GatewayProtocol; apiKey?: string; auth?: AuthFile }): string | undefined {
  const { id, protocol, auth } = g
  if (!auth)
    return isBedrock(protocol) && !g.apiKey
      ? `gateway ${id} (${protocol}) needs auth aws-sigv4 or an apiKey (a Bedrock API key)`
      : undefined
  const fields = FIELDS[auth.type]
  const missing = fields.required.find((f) => !auth[f])
  if (missing) return `gateway ${id}: auth ${auth.type} needs ${missing}`
  const known = (k: string) => k === 'type' || [...fields.required, ...fields.optional].includes(k as keyof AuthFile)
  const stray = Object.keys(auth).find((k) => !known(k))
  if (stray) return `gateway ${id}: auth ${auth.type} has no field ${stray}`
  if (isBedrock(protocol) !== (auth.type === 'aws-sigv4')) return `gateway ${id}: auth ${auth.type} does not fit protocol ${protocol}`
  if (auth.type === 'aws-sigv4' && !!auth.accessKeyId !== !!auth.secretAccessKey)
    return `gateway ${id}: auth aws-sigv4 needs both accessKeyId and secretAccessKey, or neither (the standard credential chain)`
  return undefined
}

export interface RefReader {
  /** `env:NAME` from the environment (config.secret), anything else as written. */
  secret: (ref: string | undefined) => string | undefined
  readText: (path: string) => string
}

type Resolved = { ok: true; spec: AuthSpec } | { ok: false; problem: string }

/** The auth's references resolved; a `file:` that cannot be read or a required `env:` that is unset is the problem. */
export function resolveAuth(id: string, auth: AuthFile, refs: RefReader): Resolved {
  const out: Record<string, string> = { type: auth.type }
  const required = FIELDS[auth.type].required
  for (const [field, ref] of Object.entries(auth)) {
    if (field === 'type' || typeof ref !== 'string') continue
    let value: string | undefined
    if (ref.startsWith('file:')) {
      try {
        value = refs.readText(ref.slice(5)).trim()
      } catch (e) {
        return {
          ok: false,
          problem: `gateway ${id}: auth.${field}: cannot read ${ref.slice(5)} (${(e as { code?: string }).code ?? 'unreadable'})`,
        }
      }
    } else value = refs.secret(ref)
    if (value) out[field] = value
    else if (required.includes(field as keyof AuthFile))
      return { ok: false, problem: `gateway ${id}: auth.${field}: ${ref} is unset or empty` }
  }
  return { ok: true, spec: out as AuthSpec }
}

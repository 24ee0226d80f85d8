// Where SigV4 keys come from when a gateway names none (docs/providers.md "Bedrock: Claude and Llama"): the
// standard AWS chain, first source present wins — the environment (AWS_ACCESS_KEY_ID, …), a web
// identity token file (EKS IAM roles for service accounts), container credentials (ECS task
// roles, EKS Pod Identity: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI) and the EC2
// instance metadata service (IMDSv2). Temporary credentials carry their expiry; the cache
// (token-cache.ts) refreshes them before it.
import { AuthFailure } from './auth-failure.ts'
import type { Expiring } from './token-cache.ts'
import type { Fetch } from './token-endpoint.ts'

export interface AwsCredentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
}

export interface ChainDeps {
  /** A variable of this process's environment (config.ts reads it). */
  env: (name: string) => string | undefined
  fetch: Fetch
  readFile: (path: string) => Promise<string>
  now: () => number
}

const ECS_HOST = 'http://169.254.170.2'
const IMDS_HOST = 'http://169.254.169.254'
const SOURCE_TIMEOUT_MS = 2_000

/** The JSON credentials container and instance endpoints answer with. */
interface CredentialsJson {
  AccessKeyId?: unknown
  SecretAccessKey?: unknown
  Token?: unknown
  Expiration?: unknown
}

function fromJson(json: CredentialsJson, source: string, now: number): Expiring<AwsCredentials> {
  if (typeof json.AccessKeyId !== 'string' || typeof json.SecretAccessKey !== 'string')
    throw new AuthFailure(503, `${source} answered without AccessKeyId and SecretAccessKey`)
  const expires = typeof json.Expiration === 'string' ? Date.parse(json.Expiration) : Number.NaN
  return {
    value: {
      accessKeyId: json.AccessKeyId,
      secretAccessKey: json.SecretAccessKey,
      ...(typeof json.Token === 'string' ? { sessionToken: json.Token } : {}),
    },
    expiresAt: Number.isFinite(expires) ? expires : undefined,
    fetchedAt: now,
  }
}

async function get(deps: ChainDeps, source: string, url: string, init: RequestInit = {}): Promise<string> {
  let res: Response
  try {
    res = await deps.fetch(url, { ...init, signal: AbortSignal.timeout(SOURCE_TIMEOUT_MS) })
  } catch (e) {
    throw new AuthFailure(503, `${source} unreachable: ${String(e)}`)
  }
  const text = await res.text().catch(() => '')
  if (!res.ok) throw new AuthFailure(503, `${source} answered ${res.status}`)
  return text
}

function json(text: string, source: string): CredentialsJson {
  try {
    return JSON.parse(text)
  } catch {
    throw new AuthFailure(503, `${source} answered with something other than JSON`)
  }
}

async function fromContainer(deps: ChainDeps, relative: string | undefined, full: string | undefined) {
  const url = relative ? `${ECS_HOST}${relative}` : full!
  const tokenFile = deps.env('AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE')
  const token = tokenFile ? (await deps.readFile(tokenFile)).trim() : deps.env('AWS_CONTAINER_AUTHORIZATION_TOKEN')
  const text = await get(deps, 'container credentials', url, { headers: token ? { authorization: token } : {} })
  return fromJson(json(text, 'container credentials'), 'container credentials', deps.now())
}

async function fromInstance(deps: ChainDeps) {
  const host = (deps.env('AWS_EC2_METADATA_SERVICE_ENDPOINT') ?? IMDS_HOST).replace(/\/+$/, '')
  const source = 'instance metadata'
  const token = await get(deps, source, `${host}/latest/api/token`, {
    method: 'PUT',
    headers: { 'x-aws-ec2-metadata-token-ttl-seconds': '21600' },
  })
  const headers = { 'x-aws-ec2-metadata-token': token }
  const roles = await get(deps, source, `${host}/latest/meta-data/iam/security-credentials/`, { headers })
  const role = roles.split('\n')[0]?.trim()
  if (!role) throw new AuthFailure(503, 'instance metadata names no IAM role: attach an instance profile')
  const text = await get(deps, source, `${host}/latest/meta-data/iam/security-credentials/${encodeURIComponent(role)}`, { headers })
  return fromJson(json(text, source), source, deps.now())
}

/** One element of STS's XML answer (its fields are plain text: no entities to decode in keys or dates). */
const xmlField = (xml: string, name: string): string | undefined => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1]

async function fromWebIdentity(deps: ChainDeps, tokenFile: string, roleArn: string, region: string) {
  const token = (await deps.readFile(tokenFile)).trim()
  const sts = (deps.env('AWS_ENDPOINT_URL_STS') ?? `https://sts.${region}.amazonaws.com`).replace(/\/+$/, '')
  const query = new URLSearchParams({
    Action: 'AssumeRoleWithWebIdentity',
    Version: '2011-06-15',
    RoleArn: roleArn,
    RoleSessionName: deps.env('AWS_ROLE_SESSION_NAME') ?? `tollgate-${deps.now()}`,
    WebIdentityToken: token,
  })
  const xml = await get(deps, 'STS AssumeRoleWithWebIdentity', `${sts}/?${query}`)
  return fromJson(
    {
      AccessKeyId: xmlField(xml, 'AccessKeyId'),
      SecretAccessKey: xmlField(xml, 'SecretAccessKey'),
      Token: xmlField(xml, 'SessionToken'),
      Expiration: xmlField(xml, 'Expiration'),
    },
    'STS AssumeRoleWithWebIdentity',
    deps.now(),
  )
}

/** The chain's credentials now; which source answers is decided again at each refresh. */
export async function chainCredentials(deps: ChainDeps, region: string): Promise<Expiring<AwsCredentials>> {
  const { env } = deps
  const accessKeyId = env('AWS_ACCESS_KEY_ID')
  const secretAccessKey = env('AWS_SECRET_ACCESS_KEY')
  if (accessKeyId && secretAccessKey) {
    const sessionToken = env('AWS_SESSION_TOKEN')
    return {
      value: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) },
      expiresAt: undefined,
      fetchedAt: deps.now(),
    }
  }
  const tokenFile = env('AWS_WEB_IDENTITY_TOKEN_FILE')
  const roleArn = env('AWS_ROLE_ARN')
  if (tokenFile && roleArn) return fromWebIdentity(deps, tokenFile, roleArn, region)
  const relative = env('AWS_CONTAINER_CREDENTIALS_RELATIVE_URI')
  const full = env('AWS_CONTAINER_CREDENTIALS_FULL_URI')
  if (relative || full) return fromContainer(deps, relative, full)
  if (env('AWS_EC2_METADATA_DISABLED')?.toLowerCase() === 'true')
    throw new AuthFailure(503, 'no AWS credentials: none in the gateway, the environment or a container, and instance metadata is disabled')
  return fromInstance(deps)
}

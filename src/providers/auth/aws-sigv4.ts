// AWS Signature Version 4 on every request (docs/providers.md "Bedrock: Claude and Llama"): service `bedrock`, the
// gateway's region, the body's SHA-256 in the signature. Keys are the gateway's own (with a
// session token for temporary ones) or, when it names none, the standard chain's
// (aws-credentials.ts), cached and refreshed before they expire. The signature is made over the
// request exactly as sent: its final URL (gateway query included) and headers.
import { Hash } from '@smithy/core/serde'
import { SignatureV4 } from '@smithy/signature-v4'
import type { UpstreamAuth } from '../../core/gateway.ts'
import { authFailed } from './auth-failure.ts'
import { type AwsCredentials, type ChainDeps, chainCredentials } from './aws-credentials.ts'
import { AuthSpecError } from './spec.ts'
import { CredentialCache } from './token-cache.ts'

export interface SigV4Spec {
  region: string
  accessKeyId?: string
  secretAccessKey?: string
  sessionToken?: string
}

const SERVICE = 'bedrock'
/** Headers fetch sets itself from the URL and body: not sent from here (the signed `host` equals the one sent). */
const SET_BY_CLIENT = new Set(['host', 'content-length'])

function staticKeys(spec: SigV4Spec): AwsCredentials | undefined {
  if (!spec.accessKeyId && !spec.secretAccessKey) return undefined
  if (!spec.accessKeyId || !spec.secretAccessKey)
    throw new AuthSpecError('aws-sigv4 needs both accessKeyId and secretAccessKey, or neither (the standard credential chain)')
  return {
    accessKeyId: spec.accessKeyId,
    secretAccessKey: spec.secretAccessKey,
    ...(spec.sessionToken ? { sessionToken: spec.sessionToken } : {}),
  }
}

/** `service` is Bedrock's; another is for AWS's published test vectors. */
export function awsSigV4Auth(spec: SigV4Spec, deps: ChainDeps, service = SERVICE): UpstreamAuth {
  const keys = staticKeys(spec)
  const cache = keys ? undefined : new CredentialCache(() => chainCredentials(deps, spec.region), deps.now)
  const signer = new SignatureV4({
    service,
    region: spec.region,
    // The body's hash is in the signature; the x-amz-content-sha256 header is S3's, not Bedrock's.
    applyChecksum: false,
    credentials: keys ?? (() => cache!.get()),
    sha256: Hash.bind(null, 'sha256'),
  })
  return {
    type: 'aws-sigv4',
    async authorize(req) {
      try {
        const url = new URL(req.url)
        const signed = await signer.sign(
          {
            method: 'POST',
            protocol: url.protocol,
            hostname: url.hostname,
            port: url.port ? Number(url.port) : undefined,
            path: url.pathname,
            query: Object.fromEntries(url.searchParams),
            headers: { ...req.headers, host: url.host },
            body: req.body,
          },
          { signingDate: new Date(deps.now()) },
        )
        const headers: Record<string, string> = {}
        for (const [k, v] of Object.entries(signed.headers)) if (!SET_BY_CLIENT.has(k.toLowerCase())) headers[k] = v
        return { ok: true, headers }
      } catch (e) {
        return authFailed(e)
      }
    },
  }
}

// An independent SigV4 check for the fake AWS services: the signature recomputed from the raw
// request as it arrived (method, path and query as sent, the signed headers, the body), with
// node:crypto's HMAC and SHA-256 — none of the signer's code. Checked itself against AWS's
// published vectors (test/providers/auth/aws-sigv4.test.ts).
import { createHash, createHmac } from 'node:crypto'

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/** RFC 3986 encoding as SigV4 wants it: everything but A–Z a–z 0–9 - _ . ~ as %XX, upper case. */
const uriEncode = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('')

const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, '%20'))

export interface RawRequest {
  method: string
  /** The request target as sent: path and query, still percent-encoded. */
  target: string
  headers: Record<string, string>
  body: string
}

export type Verdict = { ok: true; accessKeyId: string; sessionToken?: string } | { ok: false; why: string }

/** Canonical request of AWS SigV4 for a service other than S3: each path segment encoded once more. */
function canonicalRequest(req: RawRequest, signed: string[]): string {
  const [path = '/', query = ''] = req.target.split('?', 2) as [string, string?]
  const canonicalPath = path
    .split('/')
    .map((seg) => uriEncode(seg))
    .join('/')
  const pairs = query
    .split('&')
    .filter(Boolean)
    .map((p) => {
      const [k = '', v = ''] = p.split('=', 2)
      return [uriEncode(decode(k)), uriEncode(decode(v))] as const
    })
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
  const headers = signed.map((h) => `${h}:${(req.headers[h] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('')
  return [req.method, canonicalPath, pairs.map(([k, v]) => `${k}=${v}`).join('&'), headers, signed.join(';'), sha256(req.body)].join('\n')
}

/** Whether `req` carries a valid signature by one of `keys` (access key id → secret) for `region` and `service`. */
export function verifySigV4(req: RawRequest, keys: Record<string, string>, region: string, service: string): Verdict {
  const auth = req.headers.authorization ?? ''
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    )
  if (!m) return { ok: false, why: 'no SigV4 authorization header' }
  const [, keyId, date, r, s, signedList, signature] = m as unknown as string[]
  if (r !== region || s !== service) return { ok: false, why: `scope ${r}/${s}` }
  const secret = keys[keyId!]
  if (!secret) return { ok: false, why: `unknown access key ${keyId}` }
  const amzDate = req.headers['x-amz-date'] ?? ''
  if (!amzDate.startsWith(date!)) return { ok: false, why: 'x-amz-date does not match the scope' }
  const signed = signedList!.split(';')
  if (!signed.includes('host')) return { ok: false, why: 'host not signed' }
  const canonical = canonicalRequest(req, signed)
  const scope = `${date}/${region}/${service}/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n')
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date!), region), service), 'aws4_request')
  const expected = createHmac('sha256', key).update(toSign).digest('hex')
  if (expected !== signature) return { ok: false, why: 'signature mismatch' }
  const token = req.headers['x-amz-security-token']
  if (token !== undefined && !signed.includes('x-amz-security-token')) return { ok: false, why: 'session token not signed' }
  return { ok: true, accessKeyId: keyId!, ...(token ? { sessionToken: token } : {}) }
}

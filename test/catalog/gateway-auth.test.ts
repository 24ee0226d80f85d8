// A gateway's `auth` in the catalog (docs/providers.md "Cloud auth"): a missing or stray field, or
// an auth that does not fit the protocol, is refused in one line naming the gateway; at load, a
// key file that cannot be read or a key that cannot be used is one line too, and its calls fail over.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { CatalogFileError, parseCatalogFile } from '../../src/catalog/file.ts'
import { resolveAuth } from '../../src/catalog/gateway-auth.ts'
import { GatewayAuths } from '../../src/providers/auth/create-auth.ts'

const file = (gateway: Record<string, unknown>) => ({
  gateways: [{ id: 'cloud', baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com', ...gateway }],
  models: [],
})
const refusal = (gateway: Record<string, unknown>) => {
  try {
    parseCatalogFile(file(gateway))
  } catch (e) {
    if (e instanceof CatalogFileError) return e.message
    throw e
  }
  return undefined
}

describe('auth in the catalog file', () => {
  test('each refusal is one line naming the gateway and the field', () => {
    expect(refusal({ protocol: 'bedrock-anthropic', auth: { type: 'aws-sigv4' } })).toBe(
      'catalog: gateway cloud: auth aws-sigv4 needs region',
    )
    expect(refusal({ protocol: 'bedrock-converse' })).toBe(
      'catalog: gateway cloud (bedrock-converse) needs auth aws-sigv4 or an apiKey (a Bedrock API key)',
    )
    expect(refusal({ protocol: 'bedrock-anthropic', auth: { type: 'aws-sigv4', region: 'us-east-1', accessKeyId: 'AKIA' } })).toBe(
      'catalog: gateway cloud: auth aws-sigv4 needs both accessKeyId and secretAccessKey, or neither (the standard credential chain)',
    )
    expect(
      refusal({ protocol: 'vertex-anthropic', auth: { type: 'google-service-account', credentials: 'file:/k.json', region: 'x' } }),
    ).toBe('catalog: gateway cloud: auth google-service-account has no field region')
    expect(refusal({ protocol: 'bedrock-anthropic', auth: { type: 'azure-entra', tenantId: 't', clientId: 'c', clientSecret: 's' } })).toBe(
      'catalog: gateway cloud: auth azure-entra does not fit protocol bedrock-anthropic',
    )
    expect(refusal({ protocol: 'openai-chat', auth: { type: 'azure-entra', tenantId: 't', clientId: 'c' } })).toBe(
      'catalog: gateway cloud: auth azure-entra needs clientSecret',
    )
    expect(refusal({ protocol: 'openai-chat', auth: { type: 'kerberos' } })).toBe(
      'catalog: gateways[0].auth.type: must be one of aws-sigv4, google-service-account, azure-entra',
    )
  })

  test('well-formed auth of each type is accepted', () => {
    expect(refusal({ protocol: 'bedrock-anthropic', auth: { type: 'aws-sigv4', region: 'eu-west-1' } })).toBeUndefined()
    expect(refusal({ protocol: 'bedrock-converse', apiKey: 'env:AWS_BEARER_TOKEN_BEDROCK' })).toBeUndefined()
    expect(
      refusal({ protocol: 'vertex-anthropic', auth: { type: 'google-service-account', credentials: 'file:/run/secrets/sa.json' } }),
    ).toBeUndefined()
    expect(
      refusal({
        protocol: 'openai-chat',
        auth: { type: 'azure-entra', tenantId: 't', clientId: 'c', clientSecret: 'env:AZURE_CLIENT_SECRET' },
      }),
    ).toBeUndefined()
  })
})

describe('auth at load', () => {
  const dir = mkdtempSync(`${tmpdir()}/tollgate-auth-`)
  const refs = (env: Record<string, string> = {}) => ({
    secret: (ref: string | undefined) => (ref?.startsWith('env:') ? env[ref.slice(4)] : ref),
    readText: (path: string) => require('node:fs').readFileSync(path, 'utf8'),
  })

  test('env: and file: references resolve; an unreadable file or an unset required variable is the problem', () => {
    writeFileSync(`${dir}/secret.txt`, 'from-a-file\n')
    expect(
      resolveAuth(
        'az',
        { type: 'azure-entra', tenantId: 't', clientId: 'env:CLIENT', clientSecret: `file:${dir}/secret.txt` },
        refs({ CLIENT: 'app' }),
      ),
    ).toEqual({ ok: true, spec: { type: 'azure-entra', tenantId: 't', clientId: 'app', clientSecret: 'from-a-file' } })
    expect(resolveAuth('v', { type: 'google-service-account', credentials: `file:${dir}/missing.json` }, refs())).toEqual({
      ok: false,
      problem: `gateway v: auth.credentials: cannot read ${dir}/missing.json (ENOENT)`,
    })
    expect(resolveAuth('az', { type: 'azure-entra', tenantId: 't', clientId: 'c', clientSecret: 'env:UNSET_SECRET' }, refs())).toEqual({
      ok: false,
      problem: 'gateway az: auth.clientSecret: env:UNSET_SECRET is unset or empty',
    })
    // Optional keys left unset: the standard chain, not a problem.
    expect(
      resolveAuth('b', { type: 'aws-sigv4', region: 'us-east-1', accessKeyId: 'env:NOPE', secretAccessKey: 'env:NOPE2' }, refs()),
    ).toEqual({
      ok: true,
      spec: { type: 'aws-sigv4', region: 'us-east-1' },
    })
  })

  test('a malformed service-account key is named; the same spec keeps its auth object (and token cache) across reloads', async () => {
    const auths = new GatewayAuths({
      env: () => undefined,
      fetch: () => Promise.reject(new Error('offline')),
      readFile: async () => '',
      now: Date.now,
    })
    await expect(auths.for('v', { type: 'google-service-account', credentials: '{"client_email":"a@b"}' })).rejects.toThrow(
      'the service account key has no client_email or private_key',
    )
    await expect(
      auths.for('v', {
        type: 'google-service-account',
        credentials: '{"client_email":"a@b","private_key":"-----BEGIN PRIVATE KEY-----\\nnope\\n-----END PRIVATE KEY-----"}',
      }),
    ).rejects.toThrow('the service account private_key is not a PKCS#8 RSA key')
    await expect(auths.for('v', { type: 'google-service-account', credentials: 'not json' })).rejects.toThrow('not JSON')
    const spec = { type: 'azure-entra' as const, tenantId: 't', clientId: 'c', clientSecret: 's' }
    const first = await auths.for('az', spec)
    expect(await auths.for('az', { ...spec })).toBe(first)
    expect(await auths.for('az', { ...spec, clientSecret: 'rotated' })).not.toBe(first)
  })
})

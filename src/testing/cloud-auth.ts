// Cloud auth for catalog gateways on the fake upstream (docs/testing.md "Cloud wires on the
// fake"): the real auth code runs — SigV4 signs, the Google JWT grant and Entra's client
// credentials grant fetch tokens — against the fake, which accepts any key and grants any token,
// so a route with cloud auth works offline. The Google grant needs a real RSA key to sign with:
// one is made the first time it is asked for, and kept for the process.
import { generateKeyPairSync } from 'node:crypto'
import type { AuthFile } from '../catalog/gateway-auth.ts'

/** SigV4 with fixed, fake keys (the fake does not check the signature; a test may assert it was sent). */
export function fakeAwsAuth(region = 'us-east-1'): AuthFile {
  return { type: 'aws-sigv4', region, accessKeyId: 'AKIAFAKEKEY000000000', secretAccessKey: 'fake-secret-access-key' }
}

let privateKey: string | undefined

/** A service account's JSON key (a fresh RSA key, made once per process) whose token endpoint is the fake's. */
export function fakeServiceAccount(upstreamUrl: string): string {
  privateKey ??= String(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }))
  return JSON.stringify({
    type: 'service_account',
    project_id: 'fake-project',
    private_key_id: 'fake-key-1',
    private_key: privateKey,
    client_email: 'tollgate-test@fake-project.iam.gserviceaccount.com',
    token_uri: `${upstreamUrl}/token`,
  })
}

/** The Google service-account grant, at the fake's `/token`. */
export function fakeGoogleAuth(upstreamUrl: string): AuthFile {
  return { type: 'google-service-account', credentials: fakeServiceAccount(upstreamUrl), tokenUrl: `${upstreamUrl}/token` }
}

/** Entra ID's client credentials grant, at the fake's `/<tenant>/oauth2/v2.0/token`. */
export function fakeEntraAuth(upstreamUrl: string, tenantId = 'fake-tenant'): AuthFile {
  return {
    type: 'azure-entra',
    tenantId,
    clientId: 'fake-client-id',
    clientSecret: 'fake-client-secret',
    tokenUrl: `${upstreamUrl}/${tenantId}/oauth2/v2.0/token`,
  }
}

import { describe, expect, test } from 'bun:test'
import { checkKeySettings } from '../../src/auth/key-settings.ts'
import { GatewayError } from '../../src/core/errors.ts'

const SLUGS = ['acme/chat-1', 'acme/chat-2', 'beta/x']

const refusal = (f: () => unknown) => {
  try {
    f()
  } catch (e) {
    if (e instanceof GatewayError) return { status: e.status, message: e.message, param: e.extra.param }
    throw e
  }
  throw new Error('not refused')
}

describe('key settings', () => {
  test('given members are checked and normalised; absent ones stay absent; null clears', () => {
    expect(checkKeySettings({ models: [' acme/* ', 'beta/x', 'acme/*'], ipAllowlist: ['10.0.0.0/8 ', 'fd00::/8'], tpm: 5 }, SLUGS)).toEqual(
      {
        models: ['acme/*', 'beta/x'],
        ipAllowlist: ['10.0.0.0/8', 'fd00::/8'],
        tpm: 5,
      },
    )
    expect(checkKeySettings({ models: null, ipAllowlist: null, limitReset: null, maxConcurrent: null }, SLUGS)).toEqual({
      models: null,
      ipAllowlist: null,
      limitReset: null,
      maxConcurrent: null,
    })
    expect(checkKeySettings({}, SLUGS)).toEqual({})
  })

  test('a pattern matching no model of the catalog is a 422 naming its index', () => {
    expect(refusal(() => checkKeySettings({ models: ['acme/*', 'acme/chat-9'] }, SLUGS))).toEqual({
      status: 422,
      message: "models[1]: 'acme/chat-9' matches no model of the catalog.",
      param: 'models[1]',
    })
    expect(refusal(() => checkKeySettings({ models: [] }, SLUGS))).toMatchObject({ status: 422, param: 'models' })
    expect(refusal(() => checkKeySettings({ models: ['acme/*', ' '] }, SLUGS))).toMatchObject({ status: 422, param: 'models[1]' })
  })

  test('a block that is not an address or CIDR is a 422 naming its index', () => {
    for (const bad of ['10.0.0.0/33', '300.1.1.1', 'fd00::/129', 'localhost', '10.0.0.0/8/1'])
      expect(refusal(() => checkKeySettings({ ipAllowlist: ['192.168.0.0/16', bad] }, SLUGS))).toMatchObject({
        status: 422,
        param: 'ipAllowlist[1]',
      })
    expect(refusal(() => checkKeySettings({ ipAllowlist: [] }, SLUGS))).toMatchObject({ status: 422, param: 'ipAllowlist' })
  })
})

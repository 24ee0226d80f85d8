import { describe, expect, test } from 'bun:test'
import { closestName, editDistance } from '../../src/lib/closest-name.ts'

describe('closest name', () => {
  test('edit distance counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0)
    expect(editDistance('kitten', 'sitting')).toBe(3)
    expect(editDistance('enable', 'enabled')).toBe(1)
    expect(editDistance('abc', '')).toBe(3)
  })

  test('the slips an operator makes find the field meant, case aside', () => {
    const gateway = ['id', 'protocol', 'baseUrl', 'apiKey', 'timeoutMs', 'enabled', 'policy']
    expect(closestName('apikey', gateway)).toBe('apiKey')
    expect(closestName('timeoutMS', gateway)).toBe('timeoutMs')
    expect(closestName('enable', gateway)).toBe('enabled')
    expect(closestName('baseURL', gateway)).toBe('baseUrl')
    expect(closestName('deprecate', ['id', 'deprecated', 'description'])).toBe('deprecated')
  })

  test('nothing is suggested when no name is near', () => {
    expect(closestName('colour', ['id', 'protocol', 'baseUrl'])).toBeUndefined()
    expect(closestName('ab', ['id'])).toBeUndefined()
    expect(closestName('x', [])).toBeUndefined()
  })
})

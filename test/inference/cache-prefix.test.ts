import { describe, expect, test } from 'bun:test'
import { cachePrefixKey } from '../../src/inference/cache-prefix.ts'

const mark = { cache_control: { type: 'ephemeral' } }

describe('cachePrefixKey', () => {
  test('no prompt_cache_key and no breakpoint: no prefix', () => {
    expect(cachePrefixKey({ messages: [{ role: 'user', content: 'hi' }] }, 'k', 'm')).toBeUndefined()
  })

  test('the same prefix up to the last breakpoint is one key whatever follows; it differs per key, model and prefix', () => {
    const body = (question: string, system = 'S') => ({
      system: [{ type: 'text', text: system, ...mark }],
      messages: [{ role: 'user', content: question }],
    })
    const a = cachePrefixKey(body('one'), 'k', 'm')
    expect(a).toBeString()
    expect(cachePrefixKey(body('two'), 'k', 'm')).toBe(a!)
    expect(cachePrefixKey(body('one'), 'k2', 'm')).not.toBe(a!)
    expect(cachePrefixKey(body('one'), 'k', 'm2')).not.toBe(a!)
    expect(cachePrefixKey(body('one', 'T'), 'k', 'm')).not.toBe(a!)
  })

  test('tools, then system or instructions, then messages or input; a breakpoint in a message takes the messages before it', () => {
    const tools = [{ name: 't', ...mark }]
    expect(cachePrefixKey({ tools, input: 'x' }, 'k', 'm')).toBe(cachePrefixKey({ tools, input: 'y' }, 'k', 'm')!)
    const turn = (text: string) => ({ role: 'user', content: [{ type: 'text', text, ...mark }] })
    const a = cachePrefixKey({ messages: [turn('a'), { role: 'user', content: 'q1' }] }, 'k', 'm')
    expect(cachePrefixKey({ messages: [turn('a'), { role: 'user', content: 'q2' }] }, 'k', 'm')).toBe(a!)
    expect(cachePrefixKey({ messages: [turn('b'), { role: 'user', content: 'q1' }] }, 'k', 'm')).not.toBe(a!)
  })

  test('an explicit prompt_cache_key decides alone', () => {
    const a = cachePrefixKey({ prompt_cache_key: 'p', messages: [{ role: 'user', content: 'x' }] }, 'k', 'm')
    expect(cachePrefixKey({ prompt_cache_key: 'p', messages: [{ role: 'user', content: 'y' }] }, 'k', 'm')).toBe(a!)
    expect(cachePrefixKey({ prompt_cache_key: 'q', messages: [] }, 'k', 'm')).not.toBe(a!)
  })
})

// The flat-history builder: turns of one role merge; instructions before the first turn are the
// system text, later ones a system message at their position (consecutive ones merge).
import { expect, test } from 'bun:test'
import type { TextPart } from '../../src/core/canonical.ts'
import { conversation } from '../../src/core/conversation.ts'

const text = (t: string): TextPart => ({ type: 'text', text: t })

test('leading instructions are the system text; a later one stays at its position', () => {
  const c = conversation()
  c.instruct([text('a')])
  c.instruct([text('b')])
  c.turn('user', [text('hi')])
  c.instruct([text('c')])
  c.turn('assistant', [text('ok')])
  expect(c.system).toEqual([text('a'), text('b')])
  expect(c.messages).toEqual([
    { role: 'user', content: [text('hi')] },
    { role: 'system', content: [text('c')] },
    { role: 'assistant', content: [text('ok')] },
  ])
})

test('consecutive turns of one role, and consecutive instructions, merge; an instruction splits turns', () => {
  const c = conversation()
  c.turn('user', [text('1')])
  c.turn('user', [text('2')])
  c.instruct([text('x')])
  c.instruct([text('y')])
  c.instruct([])
  c.turn('user', [text('3')])
  expect(c.messages).toEqual([
    { role: 'user', content: [text('1'), text('2')] },
    { role: 'system', content: [text('x'), text('y')] },
    { role: 'user', content: [text('3')] },
  ])
  expect(c.system).toEqual([])
})

// Anthropic's placement rules for a system message inside `messages`, as a table: each broken
// rule names the message's position; valid conversations (Claude Code's shapes) pass.
import { expect, test } from 'bun:test'
import { rolesIssue } from '../../../src/protocols/messages/schema.ts'

type M = { role: string; content: string | { type: string }[] }
const m = (role: string, content: M['content'] = 'x'): M => ({ role, content })
const toolUse = m('assistant', [{ type: 'tool_use' }])
const toolResult = m('user', [{ type: 'tool_result' }])
const serverToolUse = m('assistant', [{ type: 'text' }, { type: 'server_tool_use' }])

test.each<[string, M[]]>([
  ['user, system (last)', [m('user'), m('system')]],
  ['user, system, assistant', [m('user'), m('system'), m('assistant')]],
  ['after the tool result', [m('user'), toolUse, toolResult, m('system', [{ type: 'text' }])]],
  ['after a server tool use', [m('user'), serverToolUse, m('system'), m('assistant')]],
  ['two, apart', [m('user'), m('system'), m('assistant'), m('user'), m('system')]],
  ['none', [m('user'), m('assistant')]],
])('valid: %s', (_, messages) => {
  expect(rolesIssue(messages)).toBeUndefined()
})

test.each<[string, M[], string, string]>([
  ['first', [m('system'), m('user')], 'messages[0].role', 'cannot be the first message'],
  ['between a tool use and its result', [m('user'), toolUse, m('system'), toolResult], 'messages[2].role', 'must follow a user message'],
  ['after an assistant turn', [m('user'), m('assistant'), m('system')], 'messages[2].role', 'must follow a user message'],
  ['before a user turn', [m('user'), m('system'), m('user')], 'messages[1].role', 'followed by an assistant message'],
  ['next to another', [m('user'), m('system'), m('system')], 'messages[1].role', 'next to another system message'],
  ['holding an image', [m('user'), m('system', [{ type: 'text' }, { type: 'image' }])], 'messages[1].content[1].type', 'text blocks only'],
  ['an unknown role', [m('user'), m('tool')], 'messages[1].role', 'must be one of user, assistant, system (got "tool")'],
])('refused: %s', (_, messages, path, words) => {
  const issue = rolesIssue(messages)
  expect(issue?.path).toBe(path)
  expect(issue?.message).toContain(words)
})

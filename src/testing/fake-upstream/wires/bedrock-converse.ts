// The fake's Bedrock Converse wire: POST `…/model/{model}/converse` answers a Converse message
// (reasoningContent, text and toolUse blocks, stopReason, usage); `…/converse-stream` answers
// AWS event-stream messages named by their event type (messageStart, contentBlockStart / Delta /
// Stop, messageStop, metadata with the usage). Failures are Bedrock's (bedrock-errors.ts).
import { eventFrame } from '../aws-event-stream.ts'
import type { ScriptedUsage } from '../reply.ts'
import { bedrockErrors } from './bedrock-errors.ts'
import { type Answer, type Frame, lastUserText, segment, type Wire } from './wire.ts'

const PATH = /\/model\/([^/]+)\/(converse|converse-stream)$/

const SIGNATURE = 'fake-signature'

const usageOf = (u: ScriptedUsage) => ({
  inputTokens: u.input,
  outputTokens: u.output,
  totalTokens: u.input + u.output + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0),
  cacheReadInputTokens: u.cacheRead ?? 0,
  cacheWriteInputTokens: u.cacheWrite ?? 0,
})

const stopOf = (a: Answer) => (a.toolCalls.length ? 'tool_use' : 'end_turn')

const systemText = (system: unknown) =>
  Array.isArray(system) ? system.map((b: { text?: unknown } | null) => (typeof b?.text === 'string' ? b.text : '')).join(' ') : ''

function json(a: Answer) {
  const content = [
    ...(a.reasoning ? [{ reasoningContent: { reasoningText: { text: a.reasoning, signature: SIGNATURE } } }] : []),
    ...(a.text || !a.toolCalls.length ? [{ text: a.text }] : []),
    ...a.toolCalls.map((c) => ({ toolUse: { toolUseId: c.id, name: c.name, input: JSON.parse(c.arguments) } })),
  ]
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: stopOf(a),
    ...(a.usage ? { usage: usageOf(a.usage) } : {}),
    metrics: { latencyMs: 1 },
  }
}

function frames(a: Answer): Frame[] {
  const frames: Frame[] = [{ data: eventFrame('messageStart', { role: 'assistant' }) }]
  let contentBlockIndex = 0
  const block = (start: object | undefined, deltas: { delta: object; chars?: number }[]) => {
    const at = { contentBlockIndex }
    if (start) frames.push({ data: eventFrame('contentBlockStart', { ...at, start }) })
    for (const d of deltas) frames.push({ data: eventFrame('contentBlockDelta', { ...at, delta: d.delta }), chars: d.chars })
    frames.push({ data: eventFrame('contentBlockStop', at) })
    contentBlockIndex++
  }
  if (a.reasoning)
    block(undefined, [{ delta: { reasoningContent: { text: a.reasoning } } }, { delta: { reasoningContent: { signature: SIGNATURE } } }])
  if (a.text || !a.toolCalls.length)
    block(
      undefined,
      a.pieces.map((p) => ({ delta: { text: p }, chars: p.length })),
    )
  for (const c of a.toolCalls) block({ toolUse: { toolUseId: c.id, name: c.name } }, [{ delta: { toolUse: { input: c.arguments } } }])
  frames.push({ data: eventFrame('messageStop', { stopReason: stopOf(a) }) })
  if (a.usage) frames.push({ data: eventFrame('metadata', { usage: usageOf(a.usage), metrics: { latencyMs: 1 } }) })
  return frames
}

export const bedrockConverse: Wire = {
  name: 'bedrock-converse',
  route: '/model/{model}/converse  |  /model/{model}/converse-stream',
  matches: (path) => PATH.test(path),
  read(body, path) {
    const [, model, action] = PATH.exec(path)!
    return {
      model: segment(model!),
      stream: action === 'converse-stream',
      prompt: lastUserText(body?.messages),
      inputText: JSON.stringify(body?.messages ?? []) + systemText(body?.system),
    }
  },
  json,
  frames,
  ...bedrockErrors,
}

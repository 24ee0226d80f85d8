// The fake's Bedrock Claude wire (InvokeModel, InvokeModelWithResponseStream): POST
// `…/model/{model}/invoke` answers an Anthropic message; `…/invoke-with-response-stream` answers
// AWS event-stream `chunk` messages, each carrying one Anthropic event as base64 `bytes`, the last
// with Bedrock's invocation metrics. The body is Anthropic's without model or stream (both are in
// the path). Failures are Bedrock's (bedrock-errors.ts).
import { eventFrame } from '../aws-event-stream.ts'
import { anthropicEvents, anthropicMessage, readAnthropic } from './anthropic-messages.ts'
import { bedrockErrors } from './bedrock-errors.ts'
import { type Answer, type Frame, segment, type Wire } from './wire.ts'

const PATH = /\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/

/** A chunk's random padding, as Bedrock adds to hide the event's length. */
const PADDING = 'abcdefghijklmnop'

function frames(a: Answer): Frame[] {
  return anthropicEvents(a).map((e, i, all) => {
    const last = i === all.length - 1
    const metrics =
      last && a.usage
        ? {
            'amazon-bedrock-invocationMetrics': {
              inputTokenCount: a.usage.input,
              outputTokenCount: a.usage.output,
              invocationLatency: 1,
              firstByteLatency: 1,
            },
          }
        : {}
    const event = { type: e.type, ...e.data, ...metrics }
    const bytes = Buffer.from(JSON.stringify(event)).toString('base64')
    return { data: eventFrame('chunk', { bytes, p: PADDING.slice(0, 1 + (i % PADDING.length)) }), chars: e.chars }
  })
}

export const bedrockAnthropic: Wire = {
  name: 'bedrock-anthropic',
  route: '/model/{model}/invoke  |  /model/{model}/invoke-with-response-stream',
  matches: (path) => PATH.test(path),
  read(body, path) {
    const [, model, action] = PATH.exec(path)!
    return { ...readAnthropic(body), model: segment(model!), stream: action === 'invoke-with-response-stream' }
  },
  json: anthropicMessage,
  frames,
  ...bedrockErrors,
}

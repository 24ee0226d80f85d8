// The fake's Vertex AI Claude wire: POST `…/publishers/anthropic/models/{model}:rawPredict`
// answers an Anthropic message, `:streamRawPredict` its SSE events, as Anthropic's own API does
// (anthropic-messages.ts). The body is Anthropic's with `anthropic_version` and no model (the
// model, with its `@version`, is in the path).
import { anthropicMessages, readAnthropic } from './anthropic-messages.ts'
import { segment, type Wire } from './wire.ts'

const PATH = /\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/

export const vertexAnthropic: Wire = {
  ...anthropicMessages,
  name: 'vertex-anthropic',
  route: '/publishers/anthropic/models/{model}:rawPredict  |  :streamRawPredict',
  matches: (path) => PATH.test(path),
  read(body, path) {
    const [, model, action] = PATH.exec(path)!
    return { ...readAnthropic(body), model: segment(model!), stream: action === 'streamRawPredict' }
  },
}

// Anthropic models on AWS Bedrock (docs/providers.md "Bedrock: Claude and Llama"): POST /model/{model}/invoke and
// /invoke-with-response-stream under the gateway's baseUrl, signed by the gateway's aws-sigv4
// auth (or a Bedrock API key as a bearer token); the stream is the AWS event stream.
import { awsEventStream } from '../transport/aws-event-stream.ts'
import type { UpstreamAdapter } from '../types.ts'
import { bedrockAnthropicPassthroughBody } from './passthrough.ts'
import { bedrockAnthropicBody } from './request.ts'
import { parseBedrockAnthropicResponse } from './response.ts'
import { bedrockAnthropicStreamDecoder } from './stream-decoder.ts'

export const bedrockAnthropicAdapter: UpstreamAdapter = {
  path: '/model',
  modelPath: (model, stream) => `/model/${encodeURIComponent(model)}/${stream ? 'invoke-with-response-stream' : 'invoke'}`,
  events: awsEventStream,
  headers(apiKey) {
    return { 'content-type': 'application/json', accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) }
  },
  passthroughBody: bedrockAnthropicPassthroughBody,
  body: bedrockAnthropicBody,
  parseResponse: parseBedrockAnthropicResponse,
  streamDecoder: bedrockAnthropicStreamDecoder,
}

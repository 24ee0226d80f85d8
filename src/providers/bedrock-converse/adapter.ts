// Any Bedrock model through the Converse API (docs/providers.md "Bedrock: Claude and Llama"): POST
// /model/{model}/converse and /converse-stream under the gateway's baseUrl, signed by its
// aws-sigv4 auth (or a Bedrock API key as a bearer token); the stream is the AWS event stream.
import { awsEventStream } from '../transport/aws-event-stream.ts'
import type { UpstreamAdapter } from '../types.ts'
import { converseNoPassthrough } from './passthrough.ts'
import { converseBody } from './request.ts'
import { parseConverseResponse } from './response.ts'
import { converseStreamDecoder } from './stream-decoder.ts'

export const bedrockConverseAdapter: UpstreamAdapter = {
  path: '/model',
  modelPath: (model, stream) => `/model/${encodeURIComponent(model)}/${stream ? 'converse-stream' : 'converse'}`,
  events: awsEventStream,
  headers(apiKey) {
    return { 'content-type': 'application/json', accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) }
  },
  passthroughBody: converseNoPassthrough,
  body: converseBody,
  parseResponse: parseConverseResponse,
  streamDecoder: converseStreamDecoder,
}

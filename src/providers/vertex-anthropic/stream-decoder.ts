// Vertex AI's Anthropic stream is Anthropic's SSE: decoded by the Anthropic decoder.
export { anthropicStreamDecoder as vertexAnthropicStreamDecoder } from '../anthropic-messages/stream-decoder.ts'

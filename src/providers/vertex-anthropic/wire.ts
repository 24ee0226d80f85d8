// Vertex AI's Anthropic wire (docs/providers.md "Vertex AI: Claude and Gemini") is Anthropic's own: the same message
// JSON and the same SSE events, read by the Anthropic wire's types and checks.
export type { AnthropicEventWire, AnthropicMessageWire } from '../anthropic-messages/wire.ts'

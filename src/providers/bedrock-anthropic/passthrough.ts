// An Anthropic client's own body for Bedrock: as anthropic-messages/passthrough.ts prepares it,
// then without the members Bedrock takes elsewhere or refuses (model, stream, metadata) and with
// its `anthropic_version`. Bedrock's answers are not Anthropic SSE, so they are always translated.
import { anthropicPassthroughBody } from '../anthropic-messages/passthrough.ts'
import { BEDROCK_ANTHROPIC_VERSION } from './request.ts'

export function bedrockAnthropicPassthroughBody(raw: Record<string, unknown>, model: string): string {
  const { model: _model, stream: _stream, metadata: _metadata, ...body } = JSON.parse(anthropicPassthroughBody(raw, model))
  return JSON.stringify({ anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...body })
}

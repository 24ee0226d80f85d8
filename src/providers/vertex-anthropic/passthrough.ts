// An Anthropic client's own body for Vertex AI: as anthropic-messages/passthrough.ts prepares it,
// without `model` (it is in the URL) and with Vertex's `anthropic_version`. The answer is
// Anthropic's own, so it passes through to an Anthropic client as from Anthropic.
import { anthropicPassthroughBody } from '../anthropic-messages/passthrough.ts'
import { VERTEX_ANTHROPIC_VERSION } from './request.ts'

export function vertexAnthropicPassthroughBody(raw: Record<string, unknown>, model: string): string {
  const { model: _model, ...body } = JSON.parse(anthropicPassthroughBody(raw, model))
  return JSON.stringify({ anthropic_version: VERTEX_ANTHROPIC_VERSION, ...body })
}

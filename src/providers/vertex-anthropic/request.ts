// Canonical request → Vertex AI's Anthropic body: the Anthropic body (anthropic-messages/request.ts)
// with Vertex's `anthropic_version` and without `model` (it is in the URL).
import type { CRequest } from '../../core/canonical.ts'
import { anthropicBodyObject } from '../anthropic-messages/request.ts'

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16'

export function vertexAnthropicBody(req: CRequest, model: string, defaultMaxTokens: number): string {
  const { model: _model, ...body } = anthropicBodyObject(req, model, defaultMaxTokens)
  return JSON.stringify({ anthropic_version: VERTEX_ANTHROPIC_VERSION, ...body })
}

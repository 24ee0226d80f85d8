// Canonical request → Bedrock's Anthropic body: the Anthropic body (anthropic-messages/request.ts)
// with Bedrock's `anthropic_version`, and without `model` (it is in the URL), `stream` (the
// endpoint says it) and `metadata` (Bedrock refuses it).
import type { CRequest } from '../../core/canonical.ts'
import { anthropicBodyObject } from '../anthropic-messages/request.ts'

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31'

export function bedrockAnthropicBody(req: CRequest, model: string, defaultMaxTokens: number): string {
  const { model: _model, stream: _stream, metadata: _metadata, ...body } = anthropicBodyObject(req, model, defaultMaxTokens)
  return JSON.stringify({ anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...body })
}

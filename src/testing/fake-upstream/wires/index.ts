// The wires the fake speaks, each matching the end of the request's path (any prefix before it,
// so one fake serves several catalog gateways: `/primary/v1/chat/completions`, `/backup/v1/...`).
// The cloud wires name the model in the path (Bedrock's `/model/{model}/invoke`, Vertex's
// `/publishers/anthropic/models/{model}:rawPredict`); the token endpoint serves the Google and
// Entra grants. A new wire is one file beside these and one line below.
import { anthropicMessages } from './anthropic-messages.ts'
import { bedrockAnthropic } from './bedrock-anthropic.ts'
import { bedrockConverse } from './bedrock-converse.ts'
import { embeddings } from './embeddings.ts'
import { oauthToken } from './oauth-token.ts'
import { openaiChat } from './openai-chat.ts'
import { openaiResponses } from './openai-responses.ts'
import { vertexAnthropic } from './vertex-anthropic.ts'
import type { Wire } from './wire.ts'

export const WIRES: readonly Wire[] = [
  openaiChat,
  anthropicMessages,
  openaiResponses,
  embeddings,
  bedrockAnthropic,
  bedrockConverse,
  vertexAnthropic,
  oauthToken,
]

export const wireFor = (path: string): Wire | undefined => WIRES.find((w) => w.matches(path))

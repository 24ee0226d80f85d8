// The wires the fake speaks, matched by the end of the request's path (any prefix before it, so
// one fake serves several catalog gateways: `/primary/v1/chat/completions`, `/backup/v1/...`).
// Cloud wires join here as they land: one file beside these, one line below.
import { anthropicMessages } from './anthropic-messages.ts'
import { embeddings } from './embeddings.ts'
import { openaiChat } from './openai-chat.ts'
import { openaiResponses } from './openai-responses.ts'
import type { Wire } from './wire.ts'

export const WIRES: readonly Wire[] = [openaiChat, anthropicMessages, openaiResponses, embeddings]

export const wireFor = (path: string): Wire | undefined => WIRES.find((w) => path.endsWith(w.suffix))

// The upstream adapters by gateway protocol. A new kind of upstream is one folder with the same
// six files as the others and one line here (docs/providers.md "Adding a provider").
import type { GatewayProtocol } from '../core/gateway.ts'
import { anthropicAdapter } from './anthropic-messages/adapter.ts'
import { bedrockAnthropicAdapter } from './bedrock-anthropic/adapter.ts'
import { bedrockConverseAdapter } from './bedrock-converse/adapter.ts'
import { openAiChatAdapter } from './openai-chat/adapter.ts'
import { openAiResponsesAdapter } from './openai-responses/adapter.ts'
import { vertexAnthropicAdapter } from './vertex-anthropic/adapter.ts'
import type { UpstreamAdapter } from './types.ts'

export const ADAPTERS: Readonly<Record<GatewayProtocol, UpstreamAdapter>> = {
  'openai-chat': openAiChatAdapter,
  'anthropic-messages': anthropicAdapter,
  'openai-responses': openAiResponsesAdapter,
  'bedrock-anthropic': bedrockAnthropicAdapter,
  'bedrock-converse': bedrockConverseAdapter,
  'vertex-anthropic': vertexAnthropicAdapter,
}

/** Upstream protocols this build can serve any inbound protocol through: those with an adapter. */
export const SERVED_PROTOCOLS: ReadonlySet<GatewayProtocol> = new Set(Object.keys(ADAPTERS) as GatewayProtocol[])

/** The adapter that speaks a gateway's protocol. */
export const adapterFor = (protocol: GatewayProtocol): UpstreamAdapter => ADAPTERS[protocol]

// The inbound protocol spokes (the three chat protocols and embeddings), built once from config (the only place that knows them all).
import { chatSpoke } from './chat/index.ts'
import { embeddingsSpoke } from './embeddings/index.ts'
import { messagesSpoke } from './messages/index.ts'
import { responsesSpoke } from './responses/index.ts'
import type { CreditDisplay } from './common/credit-svc.ts'

export function protocolSpokes(display: CreditDisplay) {
  return { chat: chatSpoke, messages: messagesSpoke(display), responses: responsesSpoke(display), embeddings: embeddingsSpoke(chatSpoke) }
}

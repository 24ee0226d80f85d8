// Builds a canonical conversation from protocols whose history is a flat list (chat messages,
// responses input items): consecutive parts of one role form one turn; instructions before the
// first turn are the request's system text, later ones a system message at their position
// (docs/translation.md "Mid-conversation system messages").
import type { CMessage, CPart, CTurn, TextPart } from './canonical.ts'

export interface Conversation {
  system: TextPart[]
  messages: CMessage[]
  /** Parts of a user or assistant turn (merged into the previous turn of the same role). */
  turn(role: CTurn['role'], parts: CPart[]): void
  /** A system or developer instruction at this point of the conversation. */
  instruct(parts: TextPart[]): void
}

export function conversation(): Conversation {
  const c: Conversation = {
    system: [],
    messages: [],
    turn(role, parts) {
      const last = c.messages.at(-1)
      if (last?.role === role) last.content.push(...parts)
      else c.messages.push({ role, content: parts })
    },
    instruct(parts) {
      if (parts.length === 0) return
      if (c.messages.length === 0) return void c.system.push(...parts)
      const last = c.messages.at(-1)
      if (last?.role === 'system') last.content.push(...parts)
      else c.messages.push({ role: 'system', content: parts })
    },
  }
  return c
}

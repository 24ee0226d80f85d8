// Reasoning that crosses into the other vendor's protocol keeps its opaque proof (Anthropic's
// thinking signature, OpenAI's encrypted_content) by riding in that protocol's own opaque field,
// tagged; when the client sends the turn back, it is restored and reaches an upstream of its
// own kind intact (and is dropped for any other kind).
import type { ReasoningPart as Reasoning } from './canonical.ts'

const ANTHROPIC = 'tg1.a.'
/** Anthropic's redacted_thinking (opaque data, no text) riding in encrypted_content. */
const ANTHROPIC_REDACTED = 'tg1.r.'
const OPENAI = 'tg1.o.'

/** The value for a responses reasoning item's `encrypted_content`. */
export function toEncryptedContent(p: Reasoning): string | undefined {
  if (p.origin === 'openai-responses') return p.encrypted
  if (p.origin === 'anthropic-messages' && p.redacted !== undefined) return ANTHROPIC_REDACTED + p.redacted
  if (p.origin === 'anthropic-messages' && p.signature) return ANTHROPIC + p.signature
  return undefined
}

export function fromEncryptedContent(enc: string | undefined): Pick<Reasoning, 'origin' | 'signature' | 'encrypted' | 'redacted'> {
  if (enc?.startsWith(ANTHROPIC)) return { origin: 'anthropic-messages', signature: enc.slice(ANTHROPIC.length) }
  if (enc?.startsWith(ANTHROPIC_REDACTED)) return { origin: 'anthropic-messages', redacted: enc.slice(ANTHROPIC_REDACTED.length) }
  return { origin: 'openai-responses', encrypted: enc }
}

/** The value for an Anthropic thinking block's `signature`. */
export function toSignature(p: Reasoning): string {
  if (p.origin === 'anthropic-messages') return p.signature ?? ''
  if (p.origin === 'openai-responses' && p.encrypted) return `${OPENAI}${p.id ?? ''}.${p.encrypted}`
  return ''
}

export const anthropicEncrypted = (signature: string) => ANTHROPIC + signature

export const anthropicRedactedEncrypted = (data: string) => ANTHROPIC_REDACTED + data

export const openAiSignature = (id: string | undefined, encrypted: string) => `${OPENAI}${id ?? ''}.${encrypted}`

/** A thinking block carrying OpenAI reasoning: Anthropic would refuse it. */
export const carriesOpenAi = (block: { type?: unknown; signature?: unknown }) =>
  block.type === 'thinking' && typeof block.signature === 'string' && block.signature.startsWith(OPENAI)

/** A reasoning item carrying Anthropic's signature: OpenAI would refuse it. */
export const carriesAnthropic = (item: { type?: unknown; encrypted_content?: unknown }) =>
  item.type === 'reasoning' &&
  typeof item.encrypted_content === 'string' &&
  (item.encrypted_content.startsWith(ANTHROPIC) || item.encrypted_content.startsWith(ANTHROPIC_REDACTED))

export function fromSignature(sig: string | undefined): Pick<Reasoning, 'origin' | 'signature' | 'encrypted' | 'id'> {
  if (sig?.startsWith(OPENAI)) {
    const rest = sig.slice(OPENAI.length)
    const dot = rest.indexOf('.')
    return { origin: 'openai-responses', id: rest.slice(0, dot) || undefined, encrypted: rest.slice(dot + 1) }
  }
  return { origin: 'anthropic-messages', signature: sig }
}

// The same-protocol body for an OpenAI responses upstream: the caller's own body with the upstream
// model name, minus reasoning items that carry Anthropic's signature (OpenAI would refuse them).
import { carriesAnthropic } from '../../core/reasoning-carrier.ts'

export const responsesPassthroughBody = (raw: Record<string, unknown>, model: string): string =>
  JSON.stringify({
    ...raw,
    model,
    ...(Array.isArray(raw.input) ? { input: raw.input.filter((i: unknown) => !carriesAnthropic(i ?? {})) } : {}),
  })

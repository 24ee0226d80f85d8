// The model's context window as a client-facing rule (docs/failover.md "Context length"): an
// upstream's own "too long" answer (each protocol words it differently) becomes one clear 400
// naming the catalog's contextWindow, and a prompt that certainly cannot fit is refused before
// any upstream call.
import { GatewayError } from './errors.ts'

/**
 * OpenAI chat and responses: code `context_length_exceeded` ("maximum context length is …",
 * "exceeds the context window"); Anthropic: "prompt is too long: N tokens > M maximum";
 * OpenAI-compatible servers (vLLM, OpenRouter): "maximum context length", "context length".
 */
const CONTEXT_ANSWER = /context_length_exceeded|maximum context length|context length|context window|prompt is too long|too many tokens/i

/** Whether an upstream's 4xx body says the request does not fit the model's context. */
export function isContextLengthAnswer(status: number, body: string): boolean {
  return (status === 400 || status === 413 || status === 422) && CONTEXT_ANSWER.test(body)
}

export function contextLengthError(contextWindow: number, param?: string): GatewayError {
  return new GatewayError(
    'CONTEXT_LENGTH_EXCEEDED',
    `The request does not fit this model's context window of ${contextWindow} tokens (prompt plus requested output); shorten the input or lower the output limit.`,
    { param },
  )
}

/**
 * Characters per token that no real tokenizer exceeds on average over a whole prompt: the
 * pre-check refuses only prompts that cannot fit even at this density, so an honest prompt near
 * the limit is left for the upstream to judge.
 */
const MAX_CHARS_PER_TOKEN = 6

export function promptCannotFit(promptChars: number, contextWindow: number): boolean {
  return Math.floor(promptChars / MAX_CHARS_PER_TOKEN) > contextWindow
}

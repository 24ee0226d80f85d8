// Both OpenAI protocols (chat completions, responses) take the same headers: JSON in, JSON or
// an event stream out, the key as `Authorization: Bearer` (docs/providers.md).

export function openAiHeaders(apiKey: string | undefined): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  if (apiKey) h.authorization = `Bearer ${apiKey}`
  return h
}

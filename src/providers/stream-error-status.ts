// The HTTP status an error sent inside a stream stands for (docs/failover.md "Failure → behaviour"):
// Anthropic names it by `error.type`, OpenAI by `error.code`, OpenRouter by a numeric `code`. Only
// the statuses failover acts on are given (408, 429, 5xx); anything else is the request's own
// fault or unknown, and stays an error event with no status.

const BY_NAME = new Map<unknown, number>(
  Object.entries({
    overloaded_error: 529,
    rate_limit_error: 429,
    api_error: 500,
    timeout_error: 504,
    rate_limit_exceeded: 429,
    insufficient_quota: 429,
    server_error: 500,
  }),
)

const failsOver = (status: number) => status === 408 || status === 429 || (status >= 500 && status <= 599)

/** `{ status }` to spread into an error event, or nothing. */
export function withStatus(code: unknown): { status?: number } {
  const status = streamErrorStatus(code)
  return status === undefined ? {} : { status }
}

export function streamErrorStatus(code: unknown): number | undefined {
  if (typeof code === 'number') return Number.isInteger(code) && failsOver(code) ? code : undefined
  return BY_NAME.get(code)
}

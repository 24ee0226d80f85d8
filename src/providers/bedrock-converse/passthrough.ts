// No client protocol speaks Converse, so no call passes through to it: every call is translated
// (request.ts). The adapter's pass-through body exists for the interface only.
export function converseNoPassthrough(): string {
  throw new Error('no client protocol speaks Bedrock Converse: calls are translated')
}

// Vertex AI's Anthropic JSON answer is an Anthropic message: read as the Anthropic wire reads it.
export { parseAnthropicResponse as parseVertexAnthropicResponse } from '../anthropic-messages/response.ts'

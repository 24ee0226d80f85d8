// Bedrock's Anthropic JSON answer is an Anthropic message: read as the Anthropic wire reads it.
export { parseAnthropicResponse as parseBedrockAnthropicResponse } from '../anthropic-messages/response.ts'

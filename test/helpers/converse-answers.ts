// Bedrock Converse answers for the fakes, in the shapes of AWS's Converse / ConverseStream API
// reference (no recording of ours exists: these are written from the documented shapes), with
// the view a client should see of each (text, tool calls, stop, cache reads) and the usage.
import { eventFrame, exceptionFrame } from './fake-clouds.ts'

export const CONVERSE_TEXT = {
  json: {
    output: { message: { role: 'assistant', content: [{ text: 'Hello from Llama on Bedrock.' }] } },
    stopReason: 'end_turn',
    usage: { inputTokens: 14, outputTokens: 8, totalTokens: 22 },
    metrics: { latencyMs: 321 },
  },
  stream: [
    ['messageStart', { role: 'assistant' }],
    ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hello from ' } }],
    ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Llama on Bedrock.' } }],
    ['contentBlockStop', { contentBlockIndex: 0 }],
    ['messageStop', { stopReason: 'end_turn' }],
    ['metadata', { usage: { inputTokens: 14, outputTokens: 8, totalTokens: 22 }, metrics: { latencyMs: 321 } }],
  ] as [string, unknown][],
  view: { text: 'Hello from Llama on Bedrock.', tools: [], reasoning: '', stop: 'end', cached: 0 },
  usage: { input: 14, output: 8, cacheRead: 0, cacheWrite: 0 },
}

export const CONVERSE_TOOLS = {
  json: {
    output: {
      message: {
        role: 'assistant',
        content: [
          { text: 'Checking both cities.' },
          { toolUse: { toolUseId: 'tooluse_paris01', name: 'get_weather', input: { location: 'Paris' } } },
          { toolUse: { toolUseId: 'tooluse_rome002', name: 'get_weather', input: { location: 'Rome' } } },
        ],
      },
    },
    stopReason: 'tool_use',
    usage: { inputTokens: 30, outputTokens: 41, totalTokens: 1271, cacheReadInputTokens: 1000, cacheWriteInputTokens: 200 },
  },
  stream: [
    ['messageStart', { role: 'assistant' }],
    ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Checking both cities.' } }],
    ['contentBlockStop', { contentBlockIndex: 0 }],
    ['contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_paris01', name: 'get_weather' } } }],
    ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"location":' } } }],
    ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '"Paris"}' } } }],
    ['contentBlockStop', { contentBlockIndex: 1 }],
    ['contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tooluse_rome002', name: 'get_weather' } } }],
    ['contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"location":"Rome"}' } } }],
    ['contentBlockStop', { contentBlockIndex: 2 }],
    ['messageStop', { stopReason: 'tool_use' }],
    [
      'metadata',
      { usage: { inputTokens: 30, outputTokens: 41, totalTokens: 1271, cacheReadInputTokens: 1000, cacheWriteInputTokens: 200 } },
    ],
  ] as [string, unknown][],
  view: {
    text: 'Checking both cities.',
    tools: [
      { name: 'get_weather', args: { location: 'Paris' } },
      { name: 'get_weather', args: { location: 'Rome' } },
    ],
    reasoning: '',
    stop: 'tool_use',
    cached: 1000,
  },
  usage: { input: 30, output: 41, cacheRead: 1000, cacheWrite: 200 },
}

export const converseFrames = (events: [string, unknown][]): Uint8Array[] => events.map(([type, payload]) => eventFrame(type, payload))

/** A mid-stream failure as ConverseStream sends it. */
export const CONVERSE_EXCEPTION = exceptionFrame('modelStreamErrorException', 'The model failed mid-stream.')

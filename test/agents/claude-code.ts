// Claude Code pointed at Tollgate as docs/clients.md "Claude Code" tells a user to: the base URL
// and a Tollgate key, every model alias on the catalog model, the context window stated, and no
// traffic but the model calls (no telemetry, no update check, no retries that would hide a
// failure). `claude -p --output-format json` prints one result object.
import { installAgent } from './install.ts'
import { spawnAgent, type AgentHome, type AgentRun } from './spawn-agent.ts'
import { CLAUDE_CODE } from './versions.ts'

export interface ClaudeResult {
  run: AgentRun
  /** The `--output-format json` result object, when the run printed one. */
  result?: { type: string; subtype: string; is_error: boolean; result?: string; num_turns: number; api_error_status?: number }
}

export function claudeEnv(baseUrl: string, key: string, model: string, home: AgentHome): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: key,
    ANTHROPIC_MODEL: model,
    ANTHROPIC_DEFAULT_OPUS_MODEL: model,
    ANTHROPIC_DEFAULT_SONNET_MODEL: model,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
    CLAUDE_CODE_SUBAGENT_MODEL: model,
    CLAUDE_CODE_AUTO_COMPACT_WINDOW: '200000',
    CLAUDE_CONFIG_DIR: `${home.home}/.claude`,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK: '1',
  }
}

export async function runClaude(
  o: { baseUrl: string; key: string; model: string; prompt: string; allowedTools?: string[] },
  home: AgentHome,
  timeoutMs = 45_000,
): Promise<ClaudeResult> {
  const bin = await installAgent(CLAUDE_CODE)
  const tools = o.allowedTools?.length ? ['--allowedTools', ...o.allowedTools] : []
  const cmd = [bin, '-p', o.prompt, '--model', o.model, '--output-format', 'json', ...tools]
  const run = await spawnAgent(cmd, home, claudeEnv(o.baseUrl, o.key, o.model, home), timeoutMs)
  const line = run.stdout.trim().split('\n').at(-1) ?? ''
  try {
    return { run, result: JSON.parse(line) }
  } catch {
    return { run }
  }
}

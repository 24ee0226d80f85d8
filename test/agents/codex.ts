// Codex CLI pointed at Tollgate as docs/clients.md "Codex CLI" tells a user to: a custom model
// provider whose base_url is Tollgate's /v1 and whose wire API is responses, the key in an
// environment variable, the model's context window stated, and no retries that would hide a
// failure. `codex exec --json` prints one JSON event a line.
import { installAgent } from './install.ts'
import { spawnAgent, type AgentHome, type AgentRun } from './spawn-agent.ts'
import { CODEX } from './versions.ts'

export interface CodexEvent {
  type: string
  item?: { type: string; text?: string; message?: string; command?: string; aggregated_output?: string; exit_code?: number }
  usage?: { input_tokens: number; output_tokens: number }
  error?: { message: string }
  message?: string
}

export interface CodexResult {
  run: AgentRun
  events: CodexEvent[]
}

export function codexConfig(baseUrl: string, model: string): string {
  return [
    `model = "${model}"`,
    'model_provider = "tollgate"',
    'model_context_window = 200000',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.tollgate]',
    'name = "Tollgate"',
    `base_url = "${baseUrl}/v1"`,
    'env_key = "TOLLGATE_API_KEY"',
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    '[analytics]',
    'enabled = false',
    '',
  ].join('\n')
}

export async function runCodex(
  o: { baseUrl: string; key: string; model: string; prompt: string },
  home: AgentHome,
  timeoutMs = 45_000,
): Promise<CodexResult> {
  const bin = await installAgent(CODEX)
  const codexHome = `${home.home}/.codex`
  await Bun.write(`${codexHome}/config.toml`, codexConfig(o.baseUrl, o.model))
  const cmd = [bin, 'exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-C', home.work, o.prompt]
  const run = await spawnAgent(cmd, home, { CODEX_HOME: codexHome, TOLLGATE_API_KEY: o.key }, timeoutMs)
  const events = run.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as CodexEvent)
  return { run, events }
}

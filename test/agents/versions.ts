// The coding-agent releases the agents suite runs (docs/clients.md "Tested versions"): the one
// place that pins them. Bumping one is changing its version here; the next `bun run test:agents`
// installs it into the cache beside the old one (test/agents/install.ts).

export interface AgentRelease {
  /** npm package name. */
  pkg: string
  version: string
  /** The command the package puts in node_modules/.bin. */
  bin: string
}

export const CLAUDE_CODE: AgentRelease = { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' }

export const CODEX: AgentRelease = { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' }

// Codex CLI (test/agents/versions.ts) through Tollgate's responses API to an upstream of each
// protocol: a plain answer, a shell command it runs and whose output it sends back, and a
// stream cut mid-way. Checks what the agent printed, what the upstream was sent, and the bill.
// Run by `bun run test:agents` only (docs/clients.md "Tested versions").
import { expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { UPSTREAM_PROTOCOLS } from '../helpers/gateway.ts'
import { describeServices } from '../helpers/services.ts'
import { expectBill } from './bill.ts'
import { agentHarness, CREDIT } from './harness.ts'
import { runCodex } from './codex.ts'
import { answer, cutAnswer } from './upstream-turns.ts'
import { expectOneCallSeen, toolOutputSent } from './upstream-view.ts'
import { CODEX } from './versions.ts'

describeServices(`Codex CLI ${CODEX.version} through Tollgate`, () => {
  const h = agentHarness(CODEX)
  const { ups, fresh } = h

  for (const p of UPSTREAM_PROTOCOLS) {
    test(`${p} upstream: a plain answer`, async () => {
      const { user, home } = await fresh(p)
      const usage = { input: 1_200, output: 9 }
      ups[p].script(answer(p, { text: 'Hello from the scripted upstream.', usage }))
      const { run, events } = await runCodex({ baseUrl: h.base, key: user.key, model: `t/${p}`, prompt: 'Say hello' }, home)
      expect(run.stderr).not.toContain('ERROR')
      expect(run.code).toBe(0)
      expect(events.filter((e) => e.item?.type === 'agent_message').map((e) => e.item!.text)).toEqual(['Hello from the scripted upstream.'])
      expect(events.at(-1)).toMatchObject({ type: 'turn.completed', usage: { input_tokens: usage.input, output_tokens: usage.output } })
      expectOneCallSeen(ups[p].seen, 'Say hello')
      await expectBill(h.gw, user.userId, CREDIT, [usage])
    })

    test(`${p} upstream: a shell command the agent runs, its output sent back, then the final answer`, async () => {
      const { user, home } = await fresh(p)
      const call = { input: 2_000, output: 30 }
      const final = { input: 2_100, output: 7 }
      const cmd = 'echo tollgate-tool-ran > proof.txt && cat proof.txt'
      ups[p].script(
        answer(p, { tool: { id: 'call_agent_1', name: 'exec_command', input: { cmd } }, usage: call }),
        answer(p, { text: 'The file is written.', usage: final }),
      )
      const { run, events } = await runCodex({ baseUrl: h.base, key: user.key, model: `t/${p}`, prompt: 'Write proof.txt' }, home)
      expect(run.code).toBe(0)
      expect(readFileSync(join(home.work, 'proof.txt'), 'utf8')).toBe('tollgate-tool-ran\n')
      expect(events.filter((e) => e.item?.type === 'agent_message').map((e) => e.item!.text)).toEqual(['The file is written.'])
      expect(ups[p].seen).toHaveLength(2)
      expect(toolOutputSent(p, ups[p].seen[1]!.body, 'call_agent_1')).toContain('tollgate-tool-ran')
      await expectBill(h.gw, user.userId, CREDIT, [call, final])
    })

    test(`${p} upstream: a stream cut mid-way ends the turn with an error, billed once`, async () => {
      const { user, home } = await fresh(p)
      ups[p].script(cutAnswer(p, 'The answer starts', { input: 1_500, output: 5 }))
      const { run, events } = await runCodex({ baseUrl: h.base, key: user.key, model: `t/${p}`, prompt: 'Tell me something long' }, home)
      expect(run.killed).toBe(false)
      expect(events.map((e) => e.type)).toContain('turn.failed')
      expect(events.map((e) => e.type)).not.toContain('turn.completed')
      expect(events.filter((e) => e.item?.type === 'agent_message')).toEqual([])
      expect(existsSync(join(home.work, 'proof.txt'))).toBe(false)
      expect(ups[p].seen).toHaveLength(1)
      await expectBill(h.gw, user.userId, CREDIT, ['estimate'])
    })
  }
})

// Code blocks of the repository's Markdown, for the docs tests: language, text, line, and the
// reason when the block is marked `<!-- not run: … -->` on the line before its fence.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const DOCS = ['README.md', 'docs/deploy.md', 'docs/providers.md'] as const

export interface Block {
  doc: string
  lang: string
  text: string
  line: number
  notRun?: string
}

export function blocks(doc: string): Block[] {
  const lines = readFileSync(`${ROOT}${doc}`, 'utf8').split('\n')
  const out: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!)
    if (!open) continue
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'))
    const note = /^<!-- not run: (.+) -->$/.exec(lines[i - 1] ?? '')
    out.push({ doc, lang: open[1]!, text: lines.slice(i + 1, end).join('\n'), line: i + 1, notRun: note?.[1] })
    i = end
  }
  return out
}

export const allBlocks = (): Block[] => DOCS.flatMap((d) => blocks(d))

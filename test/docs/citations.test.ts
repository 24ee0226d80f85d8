// Comments in src/, test/ and bench/ point only into the repository: no citation of a document
// that is not in it or of an issue by number (the code speaks of itself, through the docs), and
// every `docs/<page>.md "Section"` or `README "Section"` names a heading of that page —
// docs/api.md exactly (its headings are kept stable for this), other pages a heading that begins
// with the cited words. test/fixtures (recorded upstream data) is not ours and is skipped.
import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import { existsSync, readFileSync } from 'node:fs'
import { ROOT } from './blocks.ts'

const SELF = 'test/docs/citations.test.ts'
/** Documents that live outside the repository; spelled in pieces so this file does not cite them. */
const OUTSIDE = ['SP' + 'EC', 'DES' + 'IGN', 'STY' + 'LE', 'BENCH' + 'MARKING']
const OUTSIDE_RE = new RegExp(`\\b(${OUTSIDE.join('|')})\\b`)
/** A citation of a tracker issue by number, in any case, with or without `#` (this file is not scanned). */
const ISSUE_RE = new RegExp(`\\b${'iss' + 'ue'}s? #?\\d+`, 'i')

const files = ['src', 'test'].flatMap((dir) =>
  [...new Glob(`${dir}/**/*.{ts,lua,css,md}`).scanSync({ cwd: ROOT })].filter((f) => !f.startsWith('test/fixtures/') && f !== SELF),
)

interface Citation {
  at: string
  page: string
  section: string
}

/** Every `docs/x.md "…"` and `README "…"` of the files above, where it occurs. */
function citations(): Citation[] {
  const out: Citation[] = []
  for (const f of files) {
    const lines = readFileSync(`${ROOT}${f}`, 'utf8').split('\n')
    lines.forEach((line, i) => {
      for (const m of line.matchAll(/(?<![\w./-])(docs\/[\w-]+\.md|README(?:\.md)?) "([^"]+)"/g))
        out.push({ at: `${f}:${i + 1}`, page: m[1]!.startsWith('README') ? 'README.md' : m[1]!, section: m[2]! })
    })
  }
  return out
}

/** The headings of a Markdown page, without their #s (code blocks skipped). */
function headings(page: string): string[] {
  const out: string[] = []
  let fenced = false
  for (const line of readFileSync(`${ROOT}${page}`, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const m = !fenced && /^#{1,6} (.+?)\s*$/.exec(line)
    if (m) out.push(m[1]!)
  }
  return out
}

describe('citations in src/ and test/', () => {
  test('there are files to scan, and they include the sources that cite docs/api.md', () => {
    expect(files.length).toBeGreaterThan(300)
    expect(files).toContain('src/core/errors.ts')
    expect(citations().filter((c) => c.page === 'docs/api.md').length).toBeGreaterThan(40)
  })

  test('no comment cites a document that is not in the repository', () => {
    const found = files.flatMap((f) =>
      readFileSync(`${ROOT}${f}`, 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE_RE.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    )
    expect(found).toEqual([])
  })

  test('no file in src/, test/ or bench/ cites an issue number: it cites the docs section instead', () => {
    const ours = ['src', 'test', 'bench'].flatMap((dir) =>
      [...new Glob(`${dir}/**/*.{ts,lua,css,md}`).scanSync({ cwd: ROOT })].filter((f) => !f.startsWith('test/fixtures/') && f !== SELF),
    )
    expect(ours.filter((f) => f.startsWith('bench/')).length).toBeGreaterThan(5)
    const found = ours.flatMap((f) =>
      readFileSync(`${ROOT}${f}`, 'utf8')
        .split('\n')
        .flatMap((line, i) => (ISSUE_RE.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    )
    expect(found).toEqual([])
    // The samples are assembled, so this file does not read as citing an issue itself.
    const word = 'issue'
    expect(ISSUE_RE.test(`as ${word} 12 asked`)).toBe(true)
    expect(ISSUE_RE.test(`see ${word}s #3`)).toBe(true)
  })

  test('every cited page exists and has the cited section', () => {
    const cache = new Map<string, string[]>()
    const missing = citations().flatMap((c) => {
      if (!existsSync(`${ROOT}${c.page}`)) return [`${c.at}: ${c.page} does not exist`]
      const hs = cache.get(c.page) ?? headings(c.page)
      cache.set(c.page, hs)
      const ok = c.page === 'docs/api.md' ? hs.includes(c.section) : hs.some((h) => h.startsWith(c.section))
      return ok ? [] : [`${c.at}: ${c.page} has no section "${c.section}"`]
    })
    expect(missing).toEqual([])
  })

  test('docs/api.md and docs/architecture.md link to pages that exist, and to sections they have', () => {
    const broken = ['docs/api.md', 'docs/architecture.md'].flatMap((doc) => {
      const text = readFileSync(`${ROOT}${doc}`, 'utf8').replace(/\n/g, ' ')
      const links = [...text.matchAll(/\[[^\]]+\]\(([\w-]+\.md)\)(?: "([^"]+)")?/g)]
      expect(links.length).toBeGreaterThan(0)
      return links.flatMap(([, page, section]) => {
        const path = `docs/${page}`
        if (!existsSync(`${ROOT}${path}`)) return [`${doc}: ${path} does not exist`]
        return section === undefined || headings(path).some((h) => h.startsWith(section)) ? [] : [`${doc}: ${path} has no "${section}"`]
      })
    })
    expect(broken).toEqual([])
  })

  test('docs/api.md has no two headings alike, so a citation names one place', () => {
    const hs = headings('docs/api.md')
    expect(hs.length).toBeGreaterThan(20)
    expect(hs.filter((h, i) => hs.indexOf(h) !== i)).toEqual([])
  })
})

describe('docs/architecture.md and the README sketch name real files', () => {
  const sources = [...new Glob('{src,test}/**/*').scanSync({ cwd: ROOT })]
  const named = (doc: string) => [...readFileSync(`${ROOT}${doc}`, 'utf8').matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!)

  test('every src/ path exists (a <placeholder> folder stands for each of its kind)', () => {
    const paths = ['docs/architecture.md', 'README.md'].flatMap(named).filter((p) => p.startsWith('src/') && !p.includes('<'))
    expect(paths.length).toBeGreaterThan(20)
    expect(paths.filter((p) => !existsSync(`${ROOT}${p.replace(/\/$/, '')}`))).toEqual([])
  })

  test('every file name of the walk and the layout is a file in src/ or test/', () => {
    const names = named('docs/architecture.md').filter((n) => /^[\w.-]+\.(ts|lua)$/.test(n))
    expect(names.length).toBeGreaterThan(20)
    expect(names.filter((n) => !sources.some((f) => f.endsWith(`/${n}`)))).toEqual([])
  })
})

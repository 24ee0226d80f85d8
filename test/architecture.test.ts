// Keeps the shape of src/ (docs/architecture.md) true without a linter config: protocols and
// providers import no storage, billing, pipeline or each other (a spoke reads its native
// upstream's wire module, which imports nothing above core and lib); a protocol spoke imports
// only core, lib, protocols/common and the spoke interface; inference/ is the only area that
// joins protocols and providers; billing imports neither inference nor observability; src/lib
// imports nothing else in src and src/core nothing but lib; every upstream kind is the same six
// files; no vendor JSON is parsed outside a wire module; only config.ts reads env.
import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const SRC = resolve(import.meta.dir, '../src')

function sourceFiles(): string[] {
  return [...new Glob('**/*.ts').scanSync({ cwd: SRC })].map((f) => join(SRC, f))
}

/** Imports of a file as paths relative to src/ (external packages are skipped). */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const out: string[] = []
  for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
    const spec = m[1] ?? m[2]!
    out.push(relative(SRC, resolve(dirname(file), spec)))
  }
  return out
}

const area = (path: string) => path.split('/')[0]!
const sub = (path: string) => path.split('/').slice(0, 2).join('/')
/** A vendor wire module (docs/architecture.md "Dependency rules"): below protocols and providers both. */
const isWire = (path: string) => /^providers\/[^/]+\/wire\.ts$/.test(path)

describe('architecture', () => {
  const files = sourceFiles().map((f) => ({ path: relative(SRC, f), imports: localImports(f) }))

  test('the source tree is read', () => {
    expect(files.length).toBeGreaterThan(30)
    expect(files.find((f) => f.path === 'inference/pipeline.ts')?.imports.length).toBeGreaterThan(5)
  })

  test('protocols and providers import no storage, billing, pipeline or each other', () => {
    const forbidden = ['db', 'store', 'billing', 'routing', 'inference', 'console', 'admin', 'catalog', 'auth']
    const bad: string[] = []
    for (const f of files) {
      const a = area(f.path)
      if (a !== 'protocols' && a !== 'providers') continue
      for (const imp of f.imports) {
        const other = area(imp)
        if (forbidden.includes(other)) bad.push(`${f.path} → ${imp}`)
        if ((other === 'protocols' || other === 'providers') && other !== a && !isWire(imp)) bad.push(`${f.path} → ${imp}`)
      }
    }
    expect(bad).toEqual([])
  })

  test('a protocol spoke imports only core, lib, protocols/common, the spoke interface, wire modules and its own folder', () => {
    const spokes = files.filter((f) => area(f.path) === 'protocols' && f.path.split('/').length === 3 && sub(f.path) !== 'protocols/common')
    expect(new Set(spokes.map((f) => sub(f.path)))).toEqual(
      new Set(['protocols/chat', 'protocols/messages', 'protocols/responses', 'protocols/embeddings']),
    )
    const allowed = (imp: string, own: string) =>
      area(imp) === 'core' ||
      area(imp) === 'lib' ||
      sub(imp) === 'protocols/common' ||
      imp === 'protocols/spoke.ts' ||
      isWire(imp) ||
      sub(imp) === own
    const bad = spokes.flatMap((f) => f.imports.filter((i) => !allowed(i, sub(f.path))).map((i) => `${f.path} → ${i}`))
    expect(bad).toEqual([])
  })

  test('every chat spoke has the same file set; embeddings (pass-through only) has no codec', () => {
    const expected = ['decode.ts', 'encode.ts', 'error.ts', 'index.ts', 'passthrough.ts', 'schema.ts', 'stream-encoder.ts', 'svc.ts']
    for (const p of ['chat', 'messages', 'responses'])
      expect(
        files
          .filter((f) => sub(f.path) === `protocols/${p}`)
          .map((f) => f.path.split('/')[2])
          .sort(),
      ).toEqual(expected)
    const embeddings = files.filter((f) => sub(f.path) === 'protocols/embeddings').map((f) => f.path.split('/')[2])
    expect(embeddings.sort()).toEqual(['index.ts', 'passthrough.ts', 'schema.ts'])
  })

  test('every upstream kind has the same file set, imports no other kind and is assembled in its adapter.ts', () => {
    const kinds = [...new Set(files.filter((f) => area(f.path) === 'providers' && f.path.split('/').length === 3).map((f) => sub(f.path)))]
    expect(kinds.sort()).toEqual([
      'providers/anthropic-messages',
      'providers/auth',
      'providers/bedrock-anthropic',
      'providers/bedrock-converse',
      'providers/openai-chat',
      'providers/openai-responses',
      'providers/transport',
      'providers/vertex-anthropic',
    ])
    const upstreams = kinds.filter((k) => k !== 'providers/transport' && k !== 'providers/auth')
    const expected = ['adapter.ts', 'passthrough.ts', 'request.ts', 'response.ts', 'stream-decoder.ts', 'wire.ts']
    const shared = (imp: string) =>
      area(imp) === 'core' ||
      area(imp) === 'lib' ||
      imp === 'providers/types.ts' ||
      imp === 'providers/openai-headers.ts' ||
      imp === 'providers/stream-error-status.ts'
    // A cloud's wire that carries a vendor's format reads it through that vendor's folder, and an
    // AWS wire frames its stream with the AWS event-stream decoder (docs/providers.md "Cloud providers").
    const carries: Record<string, string[]> = {
      'providers/bedrock-anthropic': ['providers/anthropic-messages', 'providers/transport/aws-event-stream.ts'],
      'providers/bedrock-converse': ['providers/transport/aws-event-stream.ts'],
      'providers/vertex-anthropic': ['providers/anthropic-messages'],
    }
    const carried = (kind: string, imp: string) => (carries[kind] ?? []).some((c) => imp === c || sub(imp) === c)
    for (const kind of upstreams) {
      const own = files.filter((f) => sub(f.path) === kind)
      expect(own.map((f) => f.path.split('/')[2]).sort()).toEqual(expected)
      const bad = own.flatMap((f) =>
        f.imports.filter((i) => !shared(i) && sub(i) !== kind && !carried(kind, i)).map((i) => `${f.path} → ${i}`),
      )
      expect(bad).toEqual([])
      const adapter = own.find((f) => f.path === `${kind}/adapter.ts`)!
      for (const part of ['passthrough.ts', 'request.ts', 'response.ts', 'stream-decoder.ts'])
        expect(adapter.imports).toContain(`${kind}/${part}`)
    }
    const registry = files.find((f) => f.path === 'providers/registry.ts')!
    expect(upstreams.map((k) => `${k}/adapter.ts`).filter((a) => !registry.imports.includes(a))).toEqual([])
  })

  test('inference/ is the only area importing both protocols and providers', () => {
    const byArea = new Map<string, Set<string>>()
    for (const f of files) {
      const a = area(f.path)
      const set = byArea.get(a) ?? new Set<string>()
      for (const i of f.imports) set.add(isWire(i) ? 'wire' : area(i))
      byArea.set(a, set)
    }
    const joiners = [...byArea].filter(([, imported]) => imported.has('protocols') && imported.has('providers')).map(([a]) => a)
    expect(joiners).toEqual(['inference'])
  })

  test('a wire module imports nothing above it: only src/core, src/lib and the wire it carries', () => {
    const wires = files.filter((f) => isWire(f.path) || f.path === 'lib/wire.ts')
    expect(wires.length).toBeGreaterThanOrEqual(4)
    // A cloud's wire that carries a vendor's format (Bedrock's and Vertex's Claude) reads it through that vendor's wire.
    const below = (i: string) => area(i) === 'core' || area(i) === 'lib' || isWire(i)
    const bad = wires.flatMap((f) => f.imports.filter((i) => !below(i)).map((i) => `${f.path} → ${i}`))
    expect(bad).toEqual([])
  })

  test('billing does not import observability (the pipeline tells the observer what settlement returned)', () => {
    const bad = files
      .filter((f) => area(f.path) === 'billing')
      .flatMap((f) => f.imports.filter((i) => area(i) === 'observability').map((i) => `${f.path} → ${i}`))
    expect(bad).toEqual([])
  })

  test('vendor JSON is parsed only in wire modules: no `JSON.parse(…) as …Wire` elsewhere', () => {
    const cast = /JSON\.parse\([^)]*\)\s+as\s+[\w&\s<>,]*Wire\b|:\s*\w*Wire\s*=\s*JSON\.parse\(/
    const bad = sourceFiles()
      .map((f) => relative(SRC, f))
      .filter((p) => !isWire(p) && cast.test(readFileSync(join(SRC, p), 'utf8')))
    expect(bad).toEqual([])
  })

  test('billing does not import inference', () => {
    const bad = files
      .filter((f) => area(f.path) === 'billing')
      .flatMap((f) => f.imports.filter((i) => area(i) === 'inference').map((i) => `${f.path} → ${i}`))
    expect(bad).toEqual([])
  })

  test('src/lib imports nothing else in src', () => {
    const bad = files
      .filter((f) => area(f.path) === 'lib')
      .flatMap((f) => f.imports.filter((i) => area(i) !== 'lib').map((i) => `${f.path} → ${i}`))
    expect(bad).toEqual([])
  })

  test('src/core imports nothing but src/core and src/lib', () => {
    const bad = files
      .filter((f) => area(f.path) === 'core')
      .flatMap((f) => f.imports.filter((i) => area(i) !== 'core' && area(i) !== 'lib').map((i) => `${f.path} → ${i}`))
    expect(bad).toEqual([])
  })

  test('console, admin and billing import nothing from inference (each declares its own dependencies)', () => {
    const bad = files
      .filter((f) => ['console', 'admin', 'billing'].includes(area(f.path)))
      .flatMap((f) => f.imports.filter((i) => area(i) === 'inference').map((i) => `${f.path} → ${i}`))
    expect(bad).toEqual([])
    expect(files.find((f) => f.path === 'console/deps.ts')?.imports.length).toBeGreaterThan(3)
  })

  test('only config.ts reads the environment', () => {
    const readers = sourceFiles()
      .filter((f) => /process\.env|Bun\.env|import\.meta\.env/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f))
    expect(readers.filter((r) => r !== 'config.ts' && r !== 'index.ts' && r !== 'demo.ts')).toEqual([])
  })
})

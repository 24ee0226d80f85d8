// The console bundle (src/console-ui/build.ts): built once per process in memory, a script and a
// stylesheet under content-hashed asset paths.
import { expect, test } from 'bun:test'
import { consoleBundle } from '../../src/console-ui/build.ts'

test('one build per process: every call gets the same bundle', async () => {
  const a = consoleBundle()
  const b = consoleBundle()
  expect(a).toBe(b)
  expect(await a).toBe(await b)
}, 60_000)

test('a script and a stylesheet, named by the hash of their content', async () => {
  const { script, style } = await consoleBundle()
  expect(script.path).toBe(`/console/assets/app-${Bun.hash(script.body).toString(36)}.js`)
  expect(style.path).toBe(`/console/assets/app-${Bun.hash(style.body).toString(36)}.css`)
  expect(script.type).toContain('javascript')
  expect(style.type).toContain('css')
  expect(script.body.length).toBeGreaterThan(1_000)
  // minified: no source comments left
  expect(script.body).not.toContain('// The console API client')
}, 60_000)

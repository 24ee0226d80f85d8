// docs/testing.md's test file, run as a user would run it: written to a file inside this
// repository (where `tollgate/testing` resolves by the package's own name) and given to `bun test`.
import { expect, test } from 'bun:test'
import { rm } from 'node:fs/promises'
import { blocks, ROOT } from './blocks.ts'

test('the copyable test file of docs/testing.md passes', async () => {
  const [file] = blocks('docs/testing.md').filter((b) => b.lang === 'ts')
  expect(file?.text).toContain("from 'tollgate/testing'")
  const path = `${ROOT}test/docs/.testing-example-${process.pid}.test.ts`
  await Bun.write(path, file!.text)
  try {
    const proc = Bun.spawn(['bun', 'test', '--timeout', '120000', path], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
    const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
    expect({ code, summary: err.split('\n').filter((l) => /\(fail\)|^\s*\d+ (pass|fail)/.test(l)) }).toEqual({
      code: 0,
      summary: [' 6 pass', ' 0 fail'],
    })
  } finally {
    await rm(path, { force: true })
  }
}, 300_000)

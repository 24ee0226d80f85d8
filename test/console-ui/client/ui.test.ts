// Shared page pieces in Chromium: a captioned, focusable scrolling table; badges; copy buttons
// reporting success or failure; a keyset-paged list that loads more until the cursor ends.
import { beforeAll, expect, test } from 'bun:test'
import { clientPage } from '../client-page.ts'

type Ui = typeof import('../../../src/console-ui/client/ui.ts')
const cp = clientPage(
  { ui: 'ui.ts' },
  {
    'GET /api/things': (_, q) =>
      q.get('cursor') === null
        ? { body: { items: [{ n: 1 }, { n: 2 }], nextCursor: 'c2' } }
        : q.get('cursor') === 'c2'
          ? { body: { items: [{ n: 3 }], nextCursor: 'c3' } }
          : { status: 500, body: { error: { code: 'INTERNAL', message: 'Internal error.' } } },
    'GET /api/none': { body: { items: [], nextCursor: null } },
  },
)
beforeAll(() => cp.open(), 60_000)

test('a table: caption names the region, header cells by column, numbers marked, rows added later', async () => {
  const r = await cp.page.evaluate(() => {
    const { table } = window.__client.ui as Ui
    const t = table<{ a: string; b: number }>(
      'Things',
      [
        { label: 'A', cell: (x) => x.a },
        { label: 'B', cell: (x) => x.b, num: true },
      ],
      [{ a: 'x', b: 1 }],
    )
    t.add([{ a: 'y', b: 2 }])
    const region = t.wrap
    const caption = region.querySelector('caption')!
    return {
      role: region.getAttribute('role'),
      labelled: region.getAttribute('aria-labelledby') === caption.id,
      tabindex: region.getAttribute('tabindex'),
      caption: caption.textContent,
      heads: [...region.querySelectorAll('th')].map((th) => [th.textContent, th.getAttribute('scope'), th.className]),
      rows: [...t.body.rows].map((row) => [...row.cells].map((c) => [c.textContent, c.className])),
    }
  })
  expect(r).toEqual({
    role: 'region',
    labelled: true,
    tabindex: '0',
    caption: 'Things',
    heads: [
      ['A', 'col', ''],
      ['B', 'col', 'num'],
    ],
    rows: [
      [
        ['x', ''],
        ['1', 'num'],
      ],
      [
        ['y', ''],
        ['2', 'num'],
      ],
    ],
  })
})

test('a badge’s class is its text’s letters', async () => {
  const cls = await cp.page.evaluate(() => (window.__client.ui as Ui).badge('Completed!').className)
  expect(cls).toBe('badge b-ompleted')
})

test('copy: the text goes to the clipboard and the status says so; a refusal says how to copy by hand', async () => {
  const r = await cp.page.evaluate(async () => {
    const { copyButton, codeBlock } = window.__client.ui as Ui
    // The page is not a secure context, so there is no clipboard: one that records what it is given.
    const written: string[] = []
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void written.push(t) }, configurable: true })
    const ok = copyButton(() => 'secret-key')
    document.body.append(ok)
    ok.querySelector('button')!.click()
    await new Promise((res) => setTimeout(res, 50))
    const copied = written.join()
    const okStatus = ok.querySelector('[role=status]')!.textContent
    const broken = copyButton(() => {
      throw new Error('nothing to copy')
    })
    document.body.append(broken)
    broken.querySelector('button')!.click()
    await new Promise((res) => setTimeout(res, 50))
    const block = codeBlock('curl', 'curl http://x')
    return {
      copied,
      okStatus,
      brokenStatus: broken.querySelector('[role=status]')!.textContent,
      blockButton: block.querySelector('button')!.textContent,
      code: block.querySelector('pre code')!.textContent,
    }
  })
  expect(r).toEqual({
    copied: 'secret-key',
    okStatus: 'Copied.',
    brokenStatus: 'Copy failed; select the text and copy it.',
    blockButton: 'Copy curl',
    code: 'curl http://x',
  })
})

test('a paged list loads more until there is no cursor; a failed page says why and keeps what was shown', async () => {
  const r = await cp.page.evaluate(async () => {
    const { pagedTable } = window.__client.ui as Ui
    const el = await pagedTable<{ n: number }>(
      'Things',
      [{ label: 'N', cell: (x) => x.n }],
      (c) => `/api/things${c ? `?cursor=${c}` : ''}`,
      'Nothing yet.',
    )
    document.body.append(el)
    const more = el.querySelector('button')!
    const rows = () => [...el.querySelectorAll('tbody tr')].map((tr) => tr.textContent)
    const first = { rows: rows(), hidden: more.hidden }
    more.click()
    await new Promise((res) => setTimeout(res, 300))
    const second = { rows: rows(), hidden: more.hidden }
    more.click()
    await new Promise((res) => setTimeout(res, 300))
    const third = { rows: rows(), error: el.querySelector('[role=alert]')!.textContent, disabled: more.disabled }
    const empty = await pagedTable('None', [], () => '/api/none', 'Nothing yet.')
    return { first, second, third, empty: empty.outerHTML }
  })
  expect(r.first).toEqual({ rows: ['1', '2'], hidden: false })
  expect(r.second).toEqual({ rows: ['1', '2', '3'], hidden: false })
  expect(r.third).toEqual({ rows: ['1', '2', '3'], error: 'Internal error.', disabled: false })
  expect(r.empty).toBe('<p class="empty">Nothing yet.</p>')
})

test('no page errors', () => expect(cp.errors).toEqual([]))

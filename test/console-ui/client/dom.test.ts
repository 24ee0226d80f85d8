// The client's DOM builder in Chromium: text always goes in as text (never parsed as markup),
// attributes skip empty values, on* attributes become listeners, children flatten.
import { beforeAll, expect, test } from 'bun:test'
import { clientPage } from '../client-page.ts'

const cp = clientPage({ dom: 'dom.ts' })
beforeAll(() => cp.open(), 60_000)

test('text that looks like markup stays text', async () => {
  const html = await cp.page.evaluate(() => {
    const { h } = window.__client.dom as typeof import('../../../src/console-ui/client/dom.ts')
    const el = h('p', { title: '"><img src=x onerror=alert(1)>' }, '<b>bold</b>', 42)
    return {
      title: el.getAttribute('title'),
      imgs: el.querySelectorAll('img').length,
      text: el.textContent,
      children: el.childNodes.length,
    }
  })
  expect(html.imgs).toBe(0)
  expect(html.text).toBe('<b>bold</b>42')
  expect(html.title).toBe('"><img src=x onerror=alert(1)>')
  expect(html.children).toBe(2) // two text nodes, no element
})

test('attributes: true is present and empty; false, null and undefined are left out', async () => {
  const html = await cp.page.evaluate(() => {
    const { h } = window.__client.dom as typeof import('../../../src/console-ui/client/dom.ts')
    return h('input', { required: true, disabled: false, placeholder: null, value: undefined, min: 0 }).outerHTML
  })
  expect(html).toBe('<input required="" min="0">')
})

test('on* attributes are listeners, not attributes', async () => {
  const r = await cp.page.evaluate(() => {
    const { h } = window.__client.dom as typeof import('../../../src/console-ui/client/dom.ts')
    let clicks = 0
    const b = h('button', { onclick: () => clicks++ }, 'go')
    b.click()
    b.click()
    return { clicks, attr: b.getAttribute('onclick') }
  })
  expect(r).toEqual({ clicks: 2, attr: null })
})

test('children flatten from nested arrays; null, undefined and false are skipped; fill replaces', async () => {
  const r = await cp.page.evaluate(() => {
    const { h, fill, append } = window.__client.dom as typeof import('../../../src/console-ui/client/dom.ts')
    const ul = h('ul', null, [h('li', null, 'a'), [h('li', null, 'b'), null, false]], undefined)
    const before = ul.children.length
    append(ul, h('li', null, 'c'))
    const afterAppend = ul.textContent
    fill(ul, h('li', null, 'only'))
    return { before, afterAppend, after: ul.outerHTML }
  })
  expect(r).toEqual({ before: 2, afterAppend: 'abc', after: '<ul><li>only</li></ul>' })
})

test('svg elements are in the SVG namespace; uid never repeats', async () => {
  const r = await cp.page.evaluate(() => {
    const { svg, uid } = window.__client.dom as typeof import('../../../src/console-ui/client/dom.ts')
    const ids = Array.from({ length: 50 }, () => uid('f'))
    return { ns: svg('rect', { width: 2 }).namespaceURI, unique: new Set(ids).size, first: ids[0] }
  })
  expect(r.ns).toBe('http://www.w3.org/2000/svg')
  expect(r.unique).toBe(50)
  expect(r.first).toMatch(/^f-\d+$/)
})

test('no page errors', () => expect(cp.errors).toEqual([]))

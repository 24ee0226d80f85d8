// /favicon.ico (docs/console-ui.md): every console page's icon is served, never a 404.
import { describe, expect, test } from 'bun:test'
import { consoleUi } from '../../src/console-ui/index.ts'
import { shellHtml } from '../../src/console-ui/shell.ts'

describe('favicon', () => {
  test('GET /favicon.ico → 200, an SVG, cacheable', async () => {
    const res = await consoleUi().handle(new Request('http://localhost/favicon.ico'))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/svg+xml')
    expect(res.headers.get('cache-control')).toContain('max-age=')
    const svg = await res.text()
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg.trim().endsWith('</svg>')).toBe(true)
  })

  test('the console page names it as its icon, with its type', () => {
    const asset = { path: '/console/assets/x', type: 'text/plain', body: '' }
    const html = shellHtml({ script: asset, style: asset } as Parameters<typeof shellHtml>[0])
    expect(html).toContain('<link rel="icon" href="/favicon.ico" type="image/svg+xml">')
  })
})

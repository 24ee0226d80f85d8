// The one HTML document of every console path: the bundle's assets linked, the navigation (the
// operator link only for admins, by class), the main landmark, and signed-out until the script
// knows better.
import { expect, test } from 'bun:test'
import { ADMIN_NAV, NAV, shellHtml } from '../../src/console-ui/shell.ts'

const bundle = {
  script: { path: '/console/assets/app-abc.js', body: '', type: 'text/javascript' },
  style: { path: '/console/assets/app-def.css', body: '', type: 'text/css' },
}
const html = shellHtml(bundle)

test('links the bundle’s script as a module and its stylesheet', () => {
  expect(html).toContain('<script type="module" src="/console/assets/app-abc.js"></script>')
  expect(html).toContain('<link rel="stylesheet" href="/console/assets/app-def.css">')
  expect(html).not.toMatch(/<script>(?!<)/) // no inline script (the CSP forbids it)
})

test('every navigation entry is a link, in order; the operator link is admin-only', () => {
  const links = [...html.matchAll(/<li(?: class="([^"]*)")?><a href="([^"]+)">([^<]+)<\/a><\/li>/g)].map((m) => [m[2], m[3], m[1] ?? ''])
  expect(links).toEqual([...NAV.map(([href, label]) => [href, label, '']), [ADMIN_NAV[0], ADMIN_NAV[1], 'admin-only']])
})

test('a document that starts signed out, with a skip link to the main landmark', () => {
  expect(html.startsWith('<!doctype html>')).toBe(true)
  expect(html).toContain('<html lang="en">')
  expect(html).toContain('<body class="signed-out">')
  expect(html).toContain('<a class="skip" href="#main">Skip to content</a>')
  expect(html).toContain('<main id="main" tabindex="-1">')
  expect(html).toContain('<span id="who-email"></span>')
})

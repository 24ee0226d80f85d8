// The operator pages' frame (docs/console-ui.md "Operator pages"): their own navigation under the
// console's, and the refusal a signed-in non-admin sees instead of the page (the API refuses
// them too, with 403).
import { h } from '../../dom.ts'
import { currentUser } from '../../session.ts'

const SECTIONS: [path: string, label: string][] = [
  ['/console/admin', 'Overview'],
  ['/console/admin/users', 'Users'],
  ['/console/admin/gateways', 'Gateways'],
  ['/console/admin/ledger', 'Ledger'],
  ['/console/admin/audit', 'Audit log'],
]

function subnav(): HTMLElement {
  const here = location.pathname.replace(/\/$/, '')
  const current = SECTIONS.filter(([p]) => here === p || here.startsWith(`${p}/`)).sort((a, b) => b[0].length - a[0].length)[0]?.[0]
  return h(
    'nav',
    { class: 'subnav', 'aria-label': 'Operator' },
    h(
      'ul',
      null,
      SECTIONS.map(([href, label]) => h('li', null, h('a', { href, 'aria-current': href === current ? 'page' : undefined }, label))),
    ),
  )
}

/** Starts an operator page: its heading and navigation; false (and a refusal) for a non-admin. */
export async function operatorPage(view: HTMLElement, title: string): Promise<boolean> {
  const user = await currentUser()
  if (user?.role !== 'admin') {
    view.append(
      h('h1', { tabindex: -1 }, 'Operators only'),
      h('p', { role: 'alert' }, 'This page is for the operators of this gateway. Your account is not an admin.'),
      h('p', null, h('a', { href: '/console' }, 'Go to your overview')),
    )
    return false
  }
  view.append(h('h1', { tabindex: -1 }, title), subnav())
  return true
}

/** A money amount the API may not know (null): "unknown", never $0. */
export const known = (n: number | null, fmt: (n: number) => string) => (n === null ? 'unknown' : fmt(n))

/** A rate as a percentage with one decimal, or "—" without calls. */
export const percent = (r: number | null) => (r === null ? '—' : `${(r * 100).toFixed(1)} %`)

// Users (docs/operators.md "Users"): search by email, each a link to its page.
import { qs } from '../../api.ts'
import { h } from '../../dom.ts'
import { field } from '../../forms.ts'
import { usd, when } from '../../format.ts'
import { navigate, type Query } from '../../router.ts'
import { badge, pagedTable } from '../../ui.ts'
import { operatorPage } from './frame.ts'
import type { AdminUser } from './types.ts'

export async function adminUsersPage(view: HTMLElement, _params: Record<string, string>, query: Query) {
  if (!(await operatorPage(view, 'Users'))) return
  const email = query.get('email') ?? ''
  const search = field({ name: 'email', label: 'Email contains', type: 'search', value: email, autocomplete: 'off' })
  const form = h(
    'form',
    { class: 'card', role: 'search', 'aria-label': 'Find users' },
    search.wrap,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Search')),
  )
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    navigate(`/console/admin/users${qs({ email: search.input.value.trim() })}`)
  })
  view.append(form)
  view.append(
    await pagedTable<AdminUser>(
      'Users',
      [
        { label: 'Email', cell: (u) => h('a', { href: `/console/admin/users/${encodeURIComponent(u.id)}` }, u.email) },
        { label: 'Role', cell: (u) => u.role },
        { label: 'State', cell: (u) => badge(u.disabled ? 'disabled' : 'active') },
        { label: 'Balance', cell: (u) => usd(u.balance), num: true },
        { label: 'Created', cell: (u) => when(u.createdAt) },
      ],
      (cursor) => `/api/admin/users${qs({ email, limit: 50, cursor })}`,
      email ? 'No user has an email containing that.' : 'No users yet.',
    ),
  )
}

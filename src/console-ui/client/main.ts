// The console's entry point: routes, the render loop and the header's sign-out. Each page gets a
// fresh container, so a slow page that the person already left writes into nothing.
import { api, whenSignedOut } from './api.ts'
import { h } from './dom.ts'
import { signInPage, signUpPage } from './pages/auth.ts'
import { keysPage } from './pages/keys.ts'
import { logsPage } from './pages/logs.ts'
import { modelsPage } from './pages/models.ts'
import { overviewPage } from './pages/overview.ts'
import { forgotPage, resetPage, verifyPage } from './pages/recovery.ts'
import { topupPage, topupReturnPage } from './pages/topup.ts'
import { transactionPage, transactionsPage } from './pages/transactions.ts'
import { adminAuditPage } from './pages/admin/audit.ts'
import { adminGatewaysPage } from './pages/admin/gateways.ts'
import { adminLedgerPage } from './pages/admin/ledger.ts'
import { adminOverviewPage } from './pages/admin/overview.ts'
import { adminUserPage } from './pages/admin/user.ts'
import { adminUsersPage } from './pages/admin/users.ts'
import { interceptLinks, match, navigate, onNavigate, route } from './router.ts'
import { currentUser, setUser } from './session.ts'

route('/console/signin', signInPage, { public: true })
route('/console/signup', signUpPage, { public: true })
route('/console/forgot', forgotPage, { public: true })
route('/console/reset', resetPage, { public: true })
route('/console/verify', verifyPage, { public: true })
route('/console', overviewPage)
route('/console/keys', keysPage)
route('/console/topup', topupPage)
route('/console/topup/return', topupReturnPage)
route('/console/transactions', transactionsPage)
route('/console/transactions/:id', transactionPage)
route('/console/logs', logsPage)
route('/console/models', modelsPage, { public: true })
route('/console/admin', adminOverviewPage)
route('/console/admin/users', adminUsersPage)
route('/console/admin/users/:id', adminUserPage)
route('/console/admin/gateways', adminGatewaysPage)
route('/console/admin/ledger', adminLedgerPage)
route('/console/admin/audit', adminAuditPage)

const main = document.getElementById('main')!
let first = true

async function render() {
  const url = new URL(location.href)
  const found = match(url.pathname)
  const user = await currentUser()
  if (found && !found.route.public && !user)
    return navigate(`/console/signin?next=${encodeURIComponent(url.pathname + url.search)}`, { replace: true })
  if (user && /^\/console\/sign(in|up)\/?$/.test(url.pathname))
    return navigate(url.searchParams.get('next') ?? '/console', { replace: true })
  // The current section: the longest nav path the page's path starts with.
  const links = [...document.querySelectorAll('header nav a')]
  const current = links
    .filter((a) => url.pathname === a.getAttribute('href') || url.pathname.startsWith(`${a.getAttribute('href')}/`))
    .sort((a, b) => b.getAttribute('href')!.length - a.getAttribute('href')!.length)[0]
  for (const a of links) {
    if (a === current) a.setAttribute('aria-current', 'page')
    else a.removeAttribute('aria-current')
  }
  const view = h('div', { class: 'view' })
  main.replaceChildren(view)
  try {
    if (found) await found.route.page(view, found.params, url.searchParams)
    else view.append(h('h1', { tabindex: -1 }, 'Page not found'), h('p', null, h('a', { href: '/console' }, 'Go to the overview')))
  } catch (e) {
    view.append(h('p', { class: 'form-error', role: 'alert' }, e instanceof Error ? e.message : String(e)))
  }
  const heading = view.querySelector('h1')
  document.title = `${heading?.textContent ?? 'Console'} · Tollgate`
  if (!first) (heading ?? main).focus()
  first = false
}

whenSignedOut(() => {
  setUser(null)
  navigate(`/console/signin?next=${encodeURIComponent(location.pathname + location.search)}`, { replace: true })
})

document.getElementById('sign-out')!.addEventListener('click', async () => {
  await api('/api/auth/logout', { method: 'POST' }).catch(() => undefined)
  setUser(null)
  navigate('/console/signin')
})

onNavigate(() => void render())
interceptLinks()
void render()

// Client-side navigation between console paths (History API). Links inside /console are followed
// without a reload; every page change updates the title, marks the current nav link and moves
// focus to the page heading so keyboard and screen-reader users land on the new content.
export type Query = URLSearchParams
export type PageFn = (main: HTMLElement, params: Record<string, string>, query: Query) => Promise<void> | void

interface Route {
  pattern: RegExp
  keys: string[]
  page: PageFn
  public: boolean
}

const routes: Route[] = []

export function route(path: string, page: PageFn, opts: { public?: boolean } = {}) {
  const keys: string[] = []
  const pattern = new RegExp(`^${path.replace(/:(\w+)/g, (_, k) => (keys.push(k), '([^/]+)'))}/?$`)
  routes.push({ pattern, keys, page, public: opts.public ?? false })
}

export function match(pathname: string): { route: Route; params: Record<string, string> } | undefined {
  for (const r of routes) {
    const m = r.pattern.exec(pathname)
    if (m) return { route: r, params: Object.fromEntries(r.keys.map((k, i) => [k, decodeURIComponent(m[i + 1]!)])) }
  }
  return undefined
}

let render: () => void = () => {}
export const onNavigate = (f: () => void) => void (render = f)

export function navigate(path: string, opts: { replace?: boolean } = {}) {
  if (opts.replace) history.replaceState(null, '', path)
  else history.pushState(null, '', path)
  render()
}

export function interceptLinks() {
  addEventListener('popstate', () => render())
  document.addEventListener('click', (e) => {
    const a = (e.target as Element).closest?.('a')
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || a.target) return
    const url = new URL(a.href, location.href)
    if (url.origin !== location.origin || !url.pathname.startsWith('/console') || url.pathname.startsWith('/console/assets/')) return
    e.preventDefault()
    navigate(url.pathname + url.search)
  })
}

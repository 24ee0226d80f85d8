// A filter bar for a list page: its values live in the URL query (shareable, survive a reload);
// a change redraws only the results and keeps the focus on the control that changed.
import { h, type Child } from './dom.ts'
import type { Field } from './forms.ts'
import type { Query } from './router.ts'

export function filterBar(label: string, fields: Field[], query: Query, results: (values: Record<string, string>) => Promise<Child>) {
  for (const f of fields) if (query.has(f.name) || f.input instanceof HTMLInputElement) f.input.value = query.get(f.name) ?? ''
  const out = h('div', { class: 'results', 'aria-live': 'polite', 'aria-busy': 'false' })
  const values = () => Object.fromEntries(fields.map((f) => [f.name, f.input.value.trim()]))
  let latest = 0
  const draw = async () => {
    // Only the latest draw writes: an earlier, slower answer never replaces a newer one.
    const mine = ++latest
    const v = values()
    const params = new URLSearchParams(Object.entries(v).filter(([, x]) => x))
    history.replaceState(null, '', `${location.pathname}${params.size ? `?${params}` : ''}`)
    out.setAttribute('aria-busy', 'true')
    let content: HTMLElement
    try {
      content = h('div', null, await results(v))
    } catch (e) {
      content = h('p', { class: 'form-error', role: 'alert' }, e instanceof Error ? e.message : String(e))
    }
    if (mine !== latest) return
    out.replaceChildren(content)
    out.setAttribute('aria-busy', 'false')
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': label }, ...fields.map((f) => f.wrap))
  form.addEventListener('submit', (e) => (e.preventDefault(), void draw()))
  form.addEventListener('change', () => void draw())
  form.addEventListener('input', (e) => {
    if ((e.target as HTMLElement).tagName !== 'INPUT') return
    clearTimeout(timer)
    timer = setTimeout(() => void draw(), 300)
  })
  return { form, out, draw }
}

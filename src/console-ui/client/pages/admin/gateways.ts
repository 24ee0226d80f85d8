// Models and gateways (docs/operators.md "Models and gateways"): per gateway and route the
// breaker, error rate and median latency over 5 and 60 minutes; switch a route off or on; reload
// the catalog from its file (which switches every route on again).
import { api, ApiError } from '../../api.ts'
import { fill, h } from '../../dom.ts'
import { busy, formError } from '../../forms.ts'
import { int } from '../../format.ts'
import { badge, table } from '../../ui.ts'
import { actionButton } from './action.ts'
import { operatorPage, percent } from './frame.ts'
import type { GatewayRoute, GatewayView, Window } from './types.ts'

const traffic = (w: Window) =>
  `${int(w.calls)} calls · ${percent(w.errorRate)} errors · p50 ${w.p50Ms === null ? '—' : `${int(w.p50Ms)} ms`}`

export async function adminGatewaysPage(view: HTMLElement) {
  if (!(await operatorPage(view, 'Models and gateways'))) return
  const body = h('div')
  const error = formError()
  const reload = h('button', { type: 'button', class: 'secondary' }, 'Reload the catalog')
  view.append(h('div', { class: 'actions' }, reload), error, body)
  const refresh = async () => {
    const v = await api<{ items: GatewayView[]; inFlight: number }>('/api/admin/gateways')
    fill(
      body,
      h('p', { class: 'muted' }, `${int(v.inFlight)} call(s) in flight on this instance.`),
      v.items.map((g) => gatewayCard(g, refresh, error)),
    )
  }
  reload.addEventListener(
    'click',
    busy(reload, async () => {
      try {
        await api('/api/admin/catalog/reload', { method: 'POST' })
        error.textContent = ''
        await refresh()
      } catch (e) {
        error.textContent = e instanceof ApiError ? e.message : String(e)
      }
    }),
  )
  await refresh()
}

function gatewayCard(g: GatewayView, refresh: () => Promise<void>, error: HTMLElement) {
  const headingId = `gw-${g.id.replace(/[^A-Za-z0-9_-]/g, '_')}`
  const toggle = (r: GatewayRoute) => {
    const verb = r.enabled ? 'disable' : 'enable'
    const body = { model: r.model, gateway: g.id, upstreamModel: r.upstreamModel }
    return actionButton(
      `${r.enabled ? 'Disable' : 'Enable'} ${r.model} on ${g.id}`,
      r.enabled ? 'danger-link' : 'link',
      () => api(`/api/admin/routes/${verb}`, { method: 'POST', body }),
      refresh,
      error,
    )
  }
  return h(
    'section',
    { class: 'card', 'aria-labelledby': headingId },
    h('h2', { id: headingId }, g.id, ' ', badge(g.breaker)),
    h(
      'p',
      { class: 'muted' },
      `${g.protocol} · auth ${g.auth}${g.enabled ? '' : ' · disabled in the catalog'} · last 5 min: ${traffic(g.last5m)} · last 60 min: ${traffic(g.last60m)}`,
    ),
    table(
      `Routes through ${g.id}`,
      [
        { label: 'Model', cell: (r: GatewayRoute) => r.model },
        { label: 'Breaker', cell: (r: GatewayRoute) => h('span', { 'data-breaker': `${r.model}@${g.id}` }, badge(r.breaker)) },
        { label: 'Last 5 min', cell: (r: GatewayRoute) => traffic(r.last5m) },
        { label: 'Last 60 min', cell: (r: GatewayRoute) => traffic(r.last60m) },
        { label: 'Routing', cell: (r: GatewayRoute) => badge(r.enabled ? 'on' : 'off') },
        { label: 'Switch', cell: toggle },
      ],
      g.routes,
    ).wrap,
  )
}

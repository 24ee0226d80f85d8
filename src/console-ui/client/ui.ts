// Pieces the pages share: stat tiles, scrollable tables, badges, a copy button, keyset "Load
// more" lists.
import { api, ApiError, type Page } from './api.ts'
import { h, uid, type Child } from './dom.ts'

export const stat = (label: string, value: string, id?: string) => h('div', { class: 'stat' }, h('dt', null, label), h('dd', { id }, value))

export interface Column<T> {
  label: string
  cell: (row: T) => Child
  num?: boolean
}

/** A table in a horizontally scrollable, keyboard-focusable region (narrow screens). */
export function table<T>(
  caption: string,
  columns: Column<T>[],
  rows: T[],
): { wrap: HTMLElement; body: HTMLTableSectionElement; add(rows: T[]): void } {
  const body = h('tbody')
  const add = (more: T[]) =>
    body.append(
      ...more.map((r) =>
        h(
          'tr',
          null,
          columns.map((c) => h('td', { class: c.num ? 'num' : undefined }, c.cell(r))),
        ),
      ),
    )
  add(rows)
  const id = uid('tbl')
  const wrap = h(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-labelledby': id, tabindex: 0 },
    h(
      'table',
      null,
      h('caption', { id, class: 'sr-only' }, caption),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          columns.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : undefined }, c.label)),
        ),
      ),
      body,
    ),
  )
  return { wrap, body, add }
}

export const badge = (text: string) => h('span', { class: `badge b-${text.replace(/[^a-z]/g, '')}` }, text)

export function copyButton(text: () => string, label = 'Copy') {
  const status = h('span', { class: 'copy-status', role: 'status' })
  const button = h('button', { type: 'button', class: 'secondary' }, label)
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text())
      status.textContent = 'Copied.'
    } catch {
      status.textContent = 'Copy failed; select the text and copy it.'
    }
  })
  return h('span', { class: 'copy' }, button, status)
}

export const codeBlock = (label: string, code: string) =>
  h(
    'div',
    { class: 'code' },
    h(
      'div',
      { class: 'code-head' },
      h('span', null, label),
      copyButton(() => code, `Copy ${label}`),
    ),
    h('pre', { tabindex: 0 }, h('code', null, code)),
  )

/**
 * A keyset-paged list: the first page, then a "Load more" button while the API has a
 * nextCursor. `url(cursor)` builds the request for a page.
 */
export async function pagedTable<T>(
  caption: string,
  columns: Column<T>[],
  url: (cursor: string | null) => string,
  empty: string,
): Promise<HTMLElement> {
  const first = await api<Page<T>>(url(null))
  if (first.items.length === 0) return h('p', { class: 'empty' }, empty)
  const t = table(caption, columns, first.items)
  let cursor = first.nextCursor
  const error = h('p', { class: 'form-error', role: 'alert' })
  const more = h('button', { type: 'button', class: 'secondary', hidden: !cursor }, 'Load more')
  more.addEventListener('click', async () => {
    more.disabled = true
    try {
      const page = await api<Page<T>>(url(cursor))
      t.add(page.items)
      cursor = page.nextCursor
      more.hidden = !cursor
      error.textContent = ''
    } catch (e) {
      error.textContent = e instanceof ApiError ? e.message : String(e)
    } finally {
      more.disabled = false
    }
  })
  return h('div', null, t.wrap, h('div', { class: 'actions' }, more, error))
}

// A tiny DOM builder: text always goes in as text nodes (never parsed as HTML), so nothing the
// API returns can inject markup. `on*` attributes become listeners.
export type Child = Node | string | number | null | undefined | false | Child[]
export type Attrs = Record<string, unknown>

function put(el: Element, attrs: Attrs | null, children: Child[]) {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v as EventListener)
    else el.setAttribute(k, v === true ? '' : String(v))
  }
  append(el, ...children)
}

export function append(el: Node, ...children: Child[]) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue
    if (Array.isArray(c)) append(el, ...c)
    else el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)))
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  put(el, attrs, children)
  return el
}

export function svg(tag: string, attrs: Attrs | null = null, ...children: Child[]): SVGElement {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag)
  put(el, attrs, children)
  return el
}

/** Replaces the children of `el`. */
export function fill(el: Element, ...children: Child[]) {
  el.replaceChildren()
  append(el, ...children)
}

let seq = 0
export const uid = (prefix: string) => `${prefix}-${++seq}`

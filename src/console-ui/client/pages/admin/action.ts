// A button of the operator pages that changes something through the admin API and then redraws
// the page; an API refusal is said in `slot`, next to it.
import { ApiError } from '../../api.ts'
import { h } from '../../dom.ts'
import { busy } from '../../forms.ts'

export function actionButton(
  label: string,
  cls: string,
  call: () => Promise<unknown>,
  refresh: () => Promise<void>,
  slot: HTMLElement,
): HTMLButtonElement {
  const b = h('button', { type: 'button', class: cls }, label) as HTMLButtonElement
  b.addEventListener(
    'click',
    busy(b, async () => {
      try {
        await call()
        slot.textContent = ''
        await refresh()
      } catch (e) {
        slot.textContent = e instanceof ApiError ? e.message : String(e)
      }
    }),
  )
  return b
}

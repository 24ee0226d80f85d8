// DOM-only client modules under test in the headless Chromium (test/console-ui/browser.ts's
// binary): the named modules bundled as the console bundles them (Bun.build for the browser),
// loaded into a page at http://console.test/console, and the console API answered by stubs, so
// a module's own behaviour is checked without a gateway. Modules are reached in page.evaluate as
// `window.__client[name]`, typed with `typeof import(...)`.
import { afterAll, beforeAll } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { CHROMIUM } from './browser.ts'

declare global {
  interface Window {
    __client: Record<string, unknown>
  }
}

export const ORIGIN = 'http://console.test'
const CLIENT_DIR = resolve(import.meta.dir, '../../src/console-ui/client')

/** A stubbed answer of the console API: status and JSON body. */
export type Answer = { status?: number; body: unknown }
/** `METHOD /path` (query string left out) → its answer, or a function of the request body. */
export type ApiStubs = Record<string, Answer | ((body: unknown, query: URLSearchParams) => Answer)>

export interface ApiCall {
  method: string
  path: string
  query: string
  body: unknown
}

export interface ClientPage {
  page: Page
  /** Every console API call the page made, in order. */
  calls: ApiCall[]
  /** Uncaught exceptions and console errors of the page. */
  errors: string[]
  /** Replace the API stubs (for the next calls). */
  stub(stubs: ApiStubs): void
  /** A fresh page at `path` with the modules loaded. */
  open(path?: string): Promise<Page>
}

const SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tollgate console</title></head>
<body class="signed-out"><header><span id="who-email"></span><button type="button" id="sign-out">Sign out</button></header>
<main id="main" tabindex="-1"></main></body></html>`

async function bundle(modules: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tg-client-'))
  try {
    const entry = join(dir, 'entry.ts')
    const names = Object.entries(modules)
    await Bun.write(
      entry,
      names.map(([, rel], i) => `import * as m${i} from ${JSON.stringify(join(CLIENT_DIR, rel))}\n`).join('') +
        `window.__client = { ${names.map(([name], i) => `${JSON.stringify(name)}: m${i}`).join(', ')} }\n`,
    )
    const out = await Bun.build({ entrypoints: [entry], target: 'browser', format: 'iife' })
    if (!out.success) throw new AggregateError(out.logs, 'client test bundle failed')
    return await out.outputs[0]!.text()
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * Call at the top of a test file: one browser for the file, `modules` (name → path under
 * src/console-ui/client) loaded into every page it opens.
 */
export function clientPage(modules: Record<string, string>, initial: ApiStubs = {}): ClientPage {
  let browser: Browser
  let script: string
  let stubs = initial
  let current: Page | undefined
  const calls: ApiCall[] = []
  const errors: string[] = []
  beforeAll(async () => {
    ;[script, browser] = await Promise.all([
      bundle(modules),
      chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] }),
    ])
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })
  const cp: ClientPage = {
    get page() {
      if (!current) throw new Error('open() a page first')
      return current
    },
    calls,
    errors,
    stub(next) {
      stubs = next
    },
    async open(path = '/console') {
      await current?.context().close()
      const context = await browser.newContext({ baseURL: ORIGIN })
      const page = await context.newPage()
      page.setDefaultTimeout(10_000)
      page.on('pageerror', (e) => errors.push(String(e)))
      page.on('console', (m) => {
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text())
      })
      await context.route(`${ORIGIN}/**`, async (route) => {
        const req = route.request()
        const url = new URL(req.url())
        if (!url.pathname.startsWith('/api/')) return route.fulfill({ status: 200, contentType: 'text/html', body: SHELL })
        const raw = req.postData()
        const body = raw ? JSON.parse(raw) : undefined
        calls.push({ method: req.method(), path: url.pathname, query: url.search, body })
        const stub = stubs[`${req.method()} ${url.pathname}`]
        const answer = typeof stub === 'function' ? stub(body, url.searchParams) : stub
        if (!answer)
          return route.fulfill({
            status: 404,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No such endpoint.' } }),
          })
        return route.fulfill({ status: answer.status ?? 200, contentType: 'application/json', body: JSON.stringify(answer.body) })
      })
      await page.goto(path)
      await page.addScriptTag({ content: script })
      current = page
      return page
    },
  }
  return cp
}

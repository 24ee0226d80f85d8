// Headless Chromium for the console UI tests: Debian's /usr/bin/chromium driven by
// playwright-core, a fresh profile per run (removed afterwards), screenshots at desktop and
// phone widths into test/console-ui/screenshots/ (git-ignored).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'
export const SCREENSHOTS = join(import.meta.dir, 'screenshots')
export const DESKTOP = { width: 1280, height: 800 }
export const PHONE = { width: 390, height: 844 }

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface TestBrowser {
  context: BrowserContext
  page: Page
  /** Errors the page threw or logged (an uncaught exception, a console.error). */
  errors: string[]
  close(): Promise<void>
}

export async function launch(baseURL: string): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'tollgate-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    baseURL,
    viewport: DESKTOP,
    timeout: 60_000,
  })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
  context.setDefaultTimeout(20_000)
  const page = context.pages()[0] ?? (await context.newPage())
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(String(e)))
  page.on('console', (m) => {
    // A refused API call shows up as a failed resource load; those are asserted by the tests.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text())
  })
  return {
    context,
    page,
    errors,
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

/**
 * `<name>-desktop.png` and `<name>-phone.png` of the whole page as it is now, failing when the
 * page is wider than the screen. The viewport is
 * grown to the page's height rather than using `fullPage`, whose capture measured horizontally
 * scrolled code blocks into the page width at phone size.
 */
export async function screenshots(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true })
  for (const [suffix, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size)
    const { height, width } = await page.evaluate(() => ({
      height: document.documentElement.scrollHeight,
      width: document.documentElement.scrollWidth,
    }))
    // Responsive: nothing makes the page itself scroll sideways (tables and code scroll inside).
    if (width > size.width) throw new Error(`${name} is ${width}px wide at ${size.width}px`)
    await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) })
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${suffix}.png`) })
  }
  await page.setViewportSize(DESKTOP)
}

/** Every visible form control has a label a screen reader announces. */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .filter((el) => !(el as HTMLInputElement).labels?.length && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
      .map((el) => el.outerHTML),
  )
}

// The console's client bundle: Bun's own bundler, in memory, once per process, on the first
// request for a console page (docs/console-ui.md "How it is built"). Nothing is written to disk, so there
// is no build step to remember and no build output in the repository.
import { join } from 'node:path'

export interface Asset {
  /** The URL path, named by content hash so it can be cached forever. */
  path: string
  body: string
  type: string
}

export interface Bundle {
  script: Asset
  style: Asset
}

const CLIENT = join(import.meta.dir, 'client')
let built: Promise<Bundle> | undefined

async function buildOnce(): Promise<Bundle> {
  const result = await Bun.build({ entrypoints: [join(CLIENT, 'main.ts'), join(CLIENT, 'app.css')], target: 'browser', minify: true })
  if (!result.success) throw new AggregateError(result.logs, 'console UI build failed')
  const asset = async (ext: string): Promise<Asset> => {
    const out = result.outputs.find((o) => o.path.endsWith(ext))
    if (!out) throw new Error(`console UI build produced no ${ext}`)
    const body = await out.text()
    const hash = Bun.hash(body).toString(36)
    return { path: `/console/assets/app-${hash}${ext}`, body, type: out.type }
  }
  return { script: await asset('.js'), style: await asset('.css') }
}

/** The bundle, built on first use; a failed build is retried on the next call. */
export function consoleBundle(): Promise<Bundle> {
  built ??= buildOnce().catch((e) => {
    built = undefined
    throw e
  })
  return built
}

// The floor to compare against: bare Bun.serve + fetch() pass-through to the upstream.
export {}
const [portArg, upstream] = process.argv.slice(2)
const server = Bun.serve({
  port: Number(portArg ?? 0),
  hostname: '127.0.0.1',
  idleTimeout: 0,
  async fetch(req) {
    const url = new URL(req.url)
    const res = await fetch(upstream + url.pathname.replace(/^\/v1/, ''), {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      body: await req.text(),
    })
    return new Response(res.body, {
      status: res.status,
      headers: { 'content-type': res.headers.get('content-type') ?? 'application/json' },
    })
  },
})
console.log(`READY ${server.port}`)

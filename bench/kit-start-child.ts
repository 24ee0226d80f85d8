// One fresh process for bench/kit-start.ts: the time from startTollgate() to the first answered
// call, cold (the process's first instance: PGlite opened, from the migrated snapshot) and then warm (later
// instances, after a stop), printed as one JSON line {importMs, coldMs, warmMs: [...]}.
export {}
const t0 = performance.now()
const { startTollgate } = await import('tollgate/testing')
const importMs = performance.now() - t0
const WARM = Number(process.argv[2] ?? 5)

async function firstAnswer(): Promise<number> {
  const start = performance.now()
  const tg = await startTollgate()
  const res = await fetch(`${tg.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tg.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/chat', messages: [{ role: 'user', content: 'Hi' }] }),
  })
  if (res.status !== 200) throw new Error(`first call answered ${res.status}`)
  await res.json()
  const ms = performance.now() - start
  await tg.stop()
  return ms
}

const coldMs = await firstAnswer()
const warmMs: number[] = []
for (let i = 0; i < WARM; i++) warmMs.push(await firstAnswer())
console.log(JSON.stringify({ importMs, coldMs, warmMs }))

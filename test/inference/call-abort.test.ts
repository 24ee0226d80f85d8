// The per-call abort plumbing of the /v1 pipeline: the drain's cut as a watch list, one
// controller per upstream attempt aborted by the client or the cut, and the routes whose answers
// carry their own x-request-id (the app's request hook leaves them alone).
import { describe, expect, test } from 'bun:test'
import { callAbort } from '../../src/inference/call-abort.ts'
import { Cut, InFlight } from '../../src/inference/inflight.ts'
import { answersWithOwnId } from '../../src/inference/plugin.ts'

describe('Cut', () => {
  test('fires each watcher once, in the order they joined; an unwatched one and a late one are not called', () => {
    const cut = new Cut()
    const calls: string[] = []
    const a = () => calls.push('a')
    const b = () => calls.push('b')
    const c = () => calls.push('c')
    cut.watch(a)
    cut.watch(b)
    cut.watch(c)
    cut.unwatch(b)
    cut.fire()
    cut.fire()
    cut.watch(() => calls.push('late'))
    expect(calls).toEqual(['a', 'c'])
    expect(cut.aborted).toBe(true)
  })

  test("InFlight's cut controller fires its watch list", () => {
    const inflight = new InFlight()
    let fired = 0
    inflight.cutWatch.watch(() => fired++)
    inflight.cut.abort()
    expect(fired).toBe(1)
    expect(inflight.cutWatch.aborted).toBe(true)
  })
})

describe('callAbort', () => {
  test('a client that leaves aborts the attempt under way and is named the cause; later attempts start aborted', () => {
    const client = new AbortController()
    const abort = callAbort(client.signal, new Cut())
    const first = abort.attempt()
    expect(abort.cause()).toBeUndefined()
    expect(() => abort.check()).not.toThrow()
    client.abort()
    expect(first.signal.aborted).toBe(true)
    expect(abort.cause()).toBe('client')
    expect(() => abort.check()).toThrow('The call was cut before the upstream answered.')
    expect(abort.attempt().signal.aborted).toBe(true)
  })

  test('the cut aborts the attempt and names shutdown; the first cause stays', () => {
    const client = new AbortController()
    const cut = new Cut()
    const abort = callAbort(client.signal, cut)
    const attempt = abort.attempt()
    cut.fire()
    client.abort()
    expect(attempt.signal.aborted).toBe(true)
    expect(abort.cause()).toBe('shutdown')
  })

  test('a released call ignores both: its last attempt (now a stream) is not aborted by them', () => {
    const client = new AbortController()
    const cut = new Cut()
    const abort = callAbort(client.signal, cut)
    const attempt = abort.attempt()
    abort.release()
    client.abort()
    cut.fire()
    expect(attempt.signal.aborted).toBe(false)
    expect(abort.cause()).toBeUndefined()
  })

  test('a call whose client already left (or whose cut already came) starts with that cause', () => {
    const gone = new AbortController()
    gone.abort()
    expect(callAbort(gone.signal, new Cut()).cause()).toBe('client')
    const cut = new Cut()
    cut.fire()
    expect(callAbort(gone.signal, cut).cause()).toBe('shutdown')
  })

  test('a backoff ends when its wait does, or at once when the client leaves or the drain cuts; an aborted call does not wait at all', async () => {
    const never = new Promise<void>(() => {})
    const client = new AbortController()
    const a = callAbort(client.signal, new Cut())
    await a.interruptible(Bun.sleep(1))
    const waiting = a.interruptible(never)
    client.abort()
    await waiting
    await a.interruptible(never)
    const cut = new Cut()
    const b = callAbort(new AbortController().signal, cut)
    const cutWaiting = b.interruptible(never)
    cut.fire()
    await cutWaiting
    expect([a.cause(), b.cause()]).toEqual(['client', 'shutdown'])
  })
})

describe('answersWithOwnId', () => {
  test('the /v1 calls and the model list, by method and path; anything else gets the app-wide id', () => {
    const own = (method: string, url: string) => answersWithOwnId(new Request(url, { method }))
    expect(own('POST', 'http://127.0.0.1:8080/v1/chat/completions')).toBe(true)
    expect(own('POST', 'http://gw.example/v1/messages?beta=true')).toBe(true)
    expect(own('POST', 'http://gw.example/v1/messages/count_tokens')).toBe(true)
    expect(own('POST', 'http://gw.example/v1/responses')).toBe(true)
    expect(own('GET', 'http://gw.example/v1/models?shape=b')).toBe(true)
    expect(own('GET', 'http://gw.example/v1/chat/completions')).toBe(false)
    expect(own('OPTIONS', 'http://gw.example/v1/chat/completions')).toBe(false)
    expect(own('POST', 'http://gw.example/v1/chat/completions/')).toBe(false)
    expect(own('POST', 'http://gw.example/v1/unknown')).toBe(false)
    expect(own('GET', 'http://gw.example/api/me')).toBe(false)
  })
})

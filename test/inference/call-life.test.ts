// The call's lifecycle (src/inference/call-life.ts): the first end reported stands; ending aborts
// the attempt under way with a CallEnded reason (never for a completed call), wakes a backoff, and
// tells the stream pipe once; the client's signal and the drain's cut end it from outside.
import { describe, expect, test } from 'bun:test'
import { CallEnded } from '../../src/core/call-end.ts'
import { GatewayError } from '../../src/core/errors.ts'
import { CallLife } from '../../src/inference/call-life.ts'
import { Cut, InFlight } from '../../src/inference/inflight.ts'

const fresh = () => {
  const client = new AbortController()
  const drain = new Cut()
  return { client, drain, life: new CallLife(client.signal, drain) }
}

describe('CallLife', () => {
  test('the first end stands; later ones are refused', () => {
    const { life } = fresh()
    expect(life.ended).toBeUndefined()
    expect(life.end({ kind: 'client_left' })).toBe(true)
    expect(life.end({ kind: 'completed' })).toBe(false)
    expect(life.ended).toEqual({ kind: 'client_left' })
  })

  test("the client's signal ends it as client_left and aborts the attempt with that reason", () => {
    const { client, life } = fresh()
    const attempt = life.attempt()
    client.abort()
    expect(life.ended).toEqual({ kind: 'client_left' })
    expect(attempt.signal.reason).toBeInstanceOf(CallEnded)
    expect((attempt.signal.reason as CallEnded).end).toEqual({ kind: 'client_left' })
  })

  test("the drain's cut ends every open call as drain (the InFlight's one cut)", () => {
    const inflight = new InFlight()
    const lives = [0, 1, 2].map(() => new CallLife(new AbortController().signal, inflight.cut))
    const attempts = lives.map((l) => l.attempt())
    inflight.cut.fire()
    expect(lives.map((l) => l.ended?.kind)).toEqual(['drain', 'drain', 'drain'])
    expect(attempts.every((a) => (a.signal.reason as CallEnded).end.kind === 'drain')).toBe(true)
  })

  test('a completed call leaves its upstream attempt alone (its connection is reused)', () => {
    const { life } = fresh()
    const attempt = life.attempt()
    life.end({ kind: 'completed' })
    expect(attempt.signal.aborted).toBe(false)
  })

  test('an upstream failure aborts the attempt with the failure as the reason', () => {
    const { life } = fresh()
    const attempt = life.attempt()
    const error = new GatewayError('UPSTREAM_TIMEOUT', 'idle')
    life.end({ kind: 'upstream_failed', error, afterFirstByte: true })
    expect((attempt.signal.reason as CallEnded).end).toMatchObject({ kind: 'upstream_failed', afterFirstByte: true })
  })

  test('an attempt asked for after the end starts aborted', () => {
    const { life } = fresh()
    life.end({ kind: 'drain' })
    expect(life.attempt().signal.aborted).toBe(true)
  })

  test('a call already gone or drained when it starts is ended from the start', () => {
    const gone = new AbortController()
    gone.abort()
    expect(new CallLife(gone.signal, new Cut()).ended).toEqual({ kind: 'client_left' })
    const cut = new Cut()
    cut.fire()
    expect(new CallLife(new AbortController().signal, cut).ended).toEqual({ kind: 'drain' })
  })

  test('the end wakes a backoff at once; a pause after the end does not wait', async () => {
    const { client, life } = fresh()
    const forever = new Promise<void>(() => {})
    const waiting = life.pause(forever)
    client.abort()
    await waiting
    await life.pause(forever)
    expect(life.ended?.kind).toBe('client_left')
  })

  test('the stream pipe hears the end once, whoever reported it, and at once if it came first', () => {
    const { client, life } = fresh()
    const heard: string[] = []
    life.onEnd((e) => heard.push(e.kind))
    client.abort()
    life.end({ kind: 'completed' })
    expect(heard).toEqual(['client_left'])
    const late = fresh()
    late.life.end({ kind: 'drain' })
    late.life.onEnd((e) => heard.push(e.kind))
    expect(heard).toEqual(['client_left', 'drain'])
  })

  test('an ended call stops watching the drain', () => {
    const { drain, life } = fresh()
    life.end({ kind: 'completed' })
    drain.fire()
    expect(life.ended).toEqual({ kind: 'completed' })
  })
})

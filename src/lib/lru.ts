// A bounded map with per-entry expiry; Map keeps insertion order, so the first key is the oldest.

export class TtlLru<K, V> {
  private readonly map = new Map<K, { value: V; expires: number }>()
  constructor(
    private readonly max: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: K): V | undefined {
    const hit = this.map.get(key)
    if (hit === undefined) return undefined
    if (hit.expires <= this.now()) {
      this.map.delete(key)
      return undefined
    }
    return hit.value
  }

  /** The entry even when expired (it stays until replaced or evicted), with its freshness. */
  peek(key: K): { value: V; fresh: boolean } | undefined {
    const hit = this.map.get(key)
    return hit && { value: hit.value, fresh: hit.expires > this.now() }
  }

  set(key: K, value: V, ttlMs: number): void {
    this.map.delete(key)
    this.map.set(key, { value, expires: this.now() + ttlMs })
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K)
  }

  delete(key: K): void {
    this.map.delete(key)
  }

  deleteWhere(pred: (value: V) => boolean): void {
    for (const [k, v] of this.map) if (pred(v.value)) this.map.delete(k)
  }
}

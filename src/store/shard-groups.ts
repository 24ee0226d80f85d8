// The calls of one script call, grouped by shard (lua/admit.lua, lua/settle.lua take one group per
// shard: its shard's keys, then its calls), and the script's answers back in the order the calls
// were issued (turn-batch.ts answers each input with its own).

/** The inputs' indices by shard, each shard's in the order issued (a script call takes one group per shard). */
export function byShard<T>(inputs: T[], shardOfInput: (input: T) => number): Map<number, number[]> {
  const groups = new Map<number, number[]>()
  for (const [at, i] of inputs.entries()) {
    const s = shardOfInput(i)
    const group = groups.get(s)
    if (group) group.push(at)
    else groups.set(s, [at])
  }
  return groups
}

/** A script's flat answer (`width` values per call, in group order) as one answer per input, in the order issued. */
export function inIssuedOrder<V>(groups: Map<number, number[]>, flat: V[], width: number): V[][] {
  const answers: V[][] = []
  let from = 0
  for (const group of groups.values())
    for (const at of group) {
      answers[at] = flat.slice(from, from + width)
      from += width
    }
  return answers
}

// Small edits to serialized JSON without re-serializing it.

const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9

/**
 * Adds `"name":value` as the last member of a serialized object. The object's text is sliced
 * once, never trimmed into a copy: an embeddings answer is a megabyte (docs/benchmarks.md "Embeddings").
 */
export function appendMemberJson(objectJson: string, name: string, valueJson: string): string {
  let last = objectJson.lastIndexOf('}') - 1
  while (last >= 0 && isSpace(objectJson.charCodeAt(last))) last--
  const empty = objectJson.charCodeAt(last) === 123
  return `${objectJson.slice(0, last + 1)}${empty ? '' : ','}"${name}":${valueJson}}`
}

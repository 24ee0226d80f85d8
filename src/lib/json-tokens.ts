// Small edits to serialized JSON without re-serializing it.

/** Adds `"name":value` as the last member of a serialized object. */
export function appendMemberJson(objectJson: string, name: string, valueJson: string): string {
  const end = objectJson.lastIndexOf('}')
  const inner = objectJson.slice(0, end).trimEnd()
  return `${inner}${inner.endsWith('{') ? '' : ','}"${name}":${valueJson}}`
}

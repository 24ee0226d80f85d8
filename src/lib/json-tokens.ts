// Rewrites exact `"name":<json value>` members in serialized JSON without re-serializing it.
// An unescaped quote cannot occur inside a JSON string, so the token only matches structure.

export function replaceMembers(raw: string, name: string, from: string, to: string): string {
  if (from === to) return raw
  const token = `"${name}":${JSON.stringify(from)}`
  return raw.includes(token) ? raw.split(token).join(`"${name}":${JSON.stringify(to)}`) : raw
}

/** Adds `"name":value` as the last member of a serialized object. */
export function appendMemberJson(objectJson: string, name: string, valueJson: string): string {
  const end = objectJson.lastIndexOf('}')
  const inner = objectJson.slice(0, end).trimEnd()
  return `${inner}${inner.endsWith('{') ? '' : ','}"${name}":${valueJson}}`
}

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

/**
 * A serialized JSON object whose middle is another source's bytes, kept as they came (an
 * embeddings answer's vectors): `head` + `raw` + `tail`, written out without a copy into a string.
 */
export interface SplicedJson {
  head: string
  raw: Uint8Array<ArrayBuffer>
  tail: string
}

/** appendMemberJson on a body that may be spliced: the member goes at the end of its tail. */
export const appendMember = (body: string | SplicedJson, name: string, valueJson: string): string | SplicedJson =>
  typeof body === 'string' ? appendMemberJson(body, name, valueJson) : { ...body, tail: appendMemberJson(body.tail, name, valueJson) }

/** A body for a Response: the string, or the spliced parts as one Blob (its parts copied once, as bytes). */
export const bodyInit = (body: string | SplicedJson): string | Blob =>
  typeof body === 'string' ? body : new Blob([body.head, body.raw, body.tail])

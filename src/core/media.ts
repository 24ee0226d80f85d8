// Inline media crosses as data URLs (OpenAI: `data:<type>;base64,<data>`) ↔ base64 sources
// (Anthropic: media_type + data).

export function parseDataUrl(url: string | undefined): { mediaType: string; data: string } | undefined {
  if (!url?.startsWith('data:')) return undefined
  const comma = url.indexOf(',')
  const meta = url.slice(5, comma)
  if (comma === -1 || !meta.endsWith(';base64')) return undefined
  return { mediaType: meta.slice(0, -7) || 'application/octet-stream', data: url.slice(comma + 1) }
}

export const toDataUrl = (mediaType: string | undefined, data: string): string =>
  `data:${mediaType ?? 'application/octet-stream'};base64,${data}`

/** An image or file part from a URL that may be a data URL. */
export function fromUrl(url: string): { url: string } | { mediaType: string; data: string } {
  return parseDataUrl(url) ?? { url }
}

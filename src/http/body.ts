// Request bodies: size limit (DESIGN: 4 MiB, configurable → 413) and JSON parsing.
import { GatewayError } from '../core/errors.ts'

export async function readJsonBody(req: Request, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers.get('content-length') ?? '0')
  if (declared > maxBytes) throw tooLarge(maxBytes)
  const text = await req.text()
  if (text.length > maxBytes || (text.length * 3 > maxBytes && Buffer.byteLength(text) > maxBytes)) throw tooLarge(maxBytes)
  if (text.length === 0) throw new GatewayError('BAD_REQUEST', 'The request body is empty; send a JSON object.')
  try {
    return JSON.parse(text)
  } catch {
    throw new GatewayError('BAD_REQUEST', 'The request body is not valid JSON.')
  }
}

const tooLarge = (max: number) => new GatewayError('PAYLOAD_TOO_LARGE', `The request body exceeds the ${Math.floor(max / 1024)} KiB limit.`)

// Bedrock's failures as its runtime sends them: an HTTP error is `{"message"}` with its exception
// named in `x-amzn-errortype` (429 ThrottlingException, 500 InternalServerException, …); a stream
// that fails once under way ends with an exception message (throttlingException,
// modelStreamErrorException, …), named here by the status class the script gives.
import { exceptionFrame } from '../aws-event-stream.ts'
import type { ScriptedError } from '../reply.ts'
import { errorMessage } from './wire.ts'

const HTTP: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
}

const STREAM: Record<number, string> = {
  400: 'validationException',
  408: 'modelTimeoutException',
  429: 'throttlingException',
  500: 'internalServerException',
  503: 'serviceUnavailableException',
}

const httpType = (status: number) => HTTP[status] ?? (status >= 500 ? 'InternalServerException' : 'ValidationException')

export const bedrockErrors = {
  streamType: 'application/vnd.amazon.eventstream',
  streamError: (message: string, status: number | undefined) =>
    exceptionFrame((status !== undefined && STREAM[status]) || 'modelStreamErrorException', message),
  errorBody: (e: ScriptedError) => ({ message: errorMessage(e) }),
  errorHeaders: (e: ScriptedError) => ({
    'x-amzn-errortype': `${httpType(e.status)}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
  }),
}

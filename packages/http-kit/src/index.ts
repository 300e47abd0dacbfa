// The public surface of http-kit: what wire packages and the composition root use, by name.
export { sendError, errorMiddleware, normalizeError } from './error-middleware';
export { tableRenderer, type ErrorRenderer, type ErrorShape, type RenderedError } from './error-shape';
export { codeMessageErrorShape, openAiErrorShape } from './shared-error-dialects';
export { errorShapesOf, formatRouter, rendererForPath, type PathClaim, type WireFormat } from './wire-format';
export { requestId } from './request-id';
export { requestSignal } from './request-abort';
export {
  expressPath,
  mountRoutes,
  routeOf,
  type AdminContext,
  type KeyedContext,
  type Route,
  type RouteContext,
  type RouteGates,
} from './route';
export {
  actorOf,
  extractKey,
  principalOf,
  REFUSED_PRINCIPAL,
  requireKey,
  sessionIdentityOf,
  type Authenticator,
  type SessionIdentity,
} from './auth';
export { requestOrigin } from './request-origin';
export { openStreamCount, STREAM_ADMISSION, type StreamAdmission } from './sse';
export { streamTaskEvents, type TaskEventsSource } from './task-events';
export { StreamShutdown } from './stream-shutdown';
export { dataMessages, pumpStream, type PumpedStream, type SseMessage } from './stream-pump';
export { compileValidator } from './validate';
export { parseByteRange, type ByteRange } from './byte-range';
export { sendContent, type ContentDownload } from './content-download';
export { jsonBody, jsonOrMultipart, LIMITS } from './body-parsers';
export { loadUrlBytes, safeFetch, type FetchedBytes, type SafeFetchOptions } from './safe-fetch';
export {
  BINARY_FILE,
  IDEMPOTENCY_KEY_PARAM,
  withFileFields,
  type ParamDoc,
  type RouteAuth,
  type RouteDoc,
  type RouteRole,
  type SchemaDoc,
} from './route-doc';
export { atGeminiVersions, GEMINI_API_VERSIONS } from './gemini-api-versions';
export { countInputTokens } from './token-count';
export { sendWarnings } from './warnings-header';
export { refusalsFromSchema, withoutAbsentMembers, type RefusalWording, type UnknownFieldRefusal } from './schema-refusals';

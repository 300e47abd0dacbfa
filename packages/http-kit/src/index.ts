// The public surface of http-kit: what wire packages and the composition root use, by name.
export { sendError } from './error-middleware';
export { tableRenderer, type ErrorShape } from './error-shape';
export { codeMessageErrorShape, openAiErrorShape } from './shared-error-dialects';
export { errorShapesOf, formatRouter, rendererForPath, type WireFormat } from './wire-format';
export { requestId } from './request-id';
export { mountRoutes, routeOf, type AdminContext, type KeyedContext, type Route } from './route';
export { fastRoutes, serveFastFirst } from './route-dispatch';
export { adminRouteOf, changedBy, queryParam } from './admin-route';
export { extractKey, REFUSED_PRINCIPAL, type Authenticator, type SessionIdentity, type SessionLookup } from './auth';
export { requestOrigin } from './request-origin';
export { openStreamCount } from './sse';
export { streamTaskEvents, taskEventsResponse, type TaskEventsSource } from './task-events';
export { StreamShutdown } from './stream-shutdown';
export { pumpStream, type SseMessage } from './stream-pump';
export { type SchemaRefusal } from './validate';
export { checkBody, jsonRequestBody, type BodyCheckContext, type RequestBody } from './request-body';
export { queryParams } from './request-query';
export { sendContent } from './content-download';
export { boundedMultipartBody, jsonBody, jsonOrMultipart, LIMITS } from './body-parsers';
export { loadUrlBytes, safeFetch, type FetchedBytes, type SafeFetchOptions } from './safe-fetch';
export {
  BINARY_FILE,
  cursorPage,
  deletionReceipt,
  IDEMPOTENCY_KEY_PARAM,
  jsonContent,
  pathParam,
  withFileFields,
  type ParamDoc,
  type RouteDoc,
  type SchemaDoc,
} from './route-doc';
export { atGeminiVersions } from './gemini-api-versions';
export { countInputTokens } from './token-count';
export { sendJsonAnswer, sendWarnings } from './warnings-header';
export { cacheCallMeta, requestCacheControl } from './cache-header';
export { batchLineRoutes, loopbackLineDispatch } from './batch-lines';
export { decodeModerationParam, MODERATION_PARAM_SCHEMA, moderationOutcomeBody } from './in-band-moderation';
export { refusalsFromSchema, withoutAbsentMembers } from './schema-refusals';
export { fieldRefusals, unknownField, type FieldRefusal } from './field-refusals';
export { csvField, csvTable } from './csv-table';
export { openApiDocument } from './openapi-document';
export { streamAdmission } from './stream-admission';
export { databaseGate } from './database-gate';
export { createTimedServer, DEFAULT_LISTEN_TIMEOUTS, type ListenTimeouts } from './timed-server';
export { budgetHeaders, type BudgetedPrincipal } from './budget-headers';
export type { RequestState } from './request-state';

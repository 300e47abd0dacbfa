// What provider packages and the server use; everything else stays inside the kit.
// The core's names of the contract: provider packages import them from here, never from @gateway/core.
export * from './contract-core';
export { type ProviderDescriptor, type ProviderEntry, type ProviderEnvironment, type ProviderPorts } from './provider-descriptor';
export { ProviderConfigError, readOption, rejectUnknownOptions, requireApiKey, requireBaseUrl } from './provider-options';
export type { UpstreamTimeouts } from './upstream-timeouts';
export { UpstreamClient, type UpstreamCall } from './upstream-client';
export { textAndMediaClients } from './media-upstream';
export type { UpstreamResponse } from './upstream-response';
export {
  bearerAuth,
  createVideoProvider,
  videoProvider,
  SOCKETS_ONLY_OPTIONS_SCHEMA,
  type VideoProvider,
  type VideoProviderConfig,
} from './video-provider';
export { createUpstreamProvider } from './upstream-provider';
export {
  type UpstreamFailure,
  type UpstreamErrorDetails,
  mapUpstreamStatus,
  upstreamQuotaExhausted,
  truncatedStream,
  malformedUpstream,
  upstreamContentPolicy,
  tokenCount,
} from './upstream-errors';
export { generationFailed, missingVideo, openDownload, upstreamTaskIds } from './upstream-tasks';
export { jsonEvents, parseSse, type SseEvent } from './sse-parser';
export { isEventObject, keysIn, StreamForwarder, type EventJson, type Forwarding } from './stream-forwarder';
export { s, checkUpstream, type Infer, type UpstreamSchema } from './upstream-schema';
export { imageUrl, parseToolArguments, unreadFields, usageOf } from './conversion-helpers';
export { mapUpstreamModeration, moderationParam, upstreamModerationSchema } from './in-band-moderation';
export {
  chatCompletionSchema,
  type ChatDialect,
  OPENAI_CHAT_DIALECT,
  ChatCompletionsModel,
  ChatStreamMapper,
  chatErrorDetails,
  describeChatFailure,
  convertToChatRequest,
  mapChatCompletion,
  readChatStream,
} from './chat-dialect';
export { TranscriptionsModel, WHISPER_DIALECT, type TranscriptionDialect } from './audio-dialect';
export { embeddingTexts } from './embedding-texts';
export { createRedactor, type Redact } from './secret-redactor';
export { OpenAiEmbeddingsModel } from './embeddings-dialect';
export { providerSecrets, redactingPorts } from './redacting-ports';
export { ADAPTER_CONTRACT_VERSION, type AdapterDescriptor, type AdapterEnvironment, type AdapterKit } from './adapter-contract';
export { AdapterModules } from './adapter-modules';
export { importEsm } from './esm-import';
export { McpHttpClient } from './mcp/mcp-http-client';

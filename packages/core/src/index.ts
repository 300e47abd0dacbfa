export { ERROR_REASONS, type ErrorReason, GatewayError, type GatewayErrorOptions, invalid, isGatewayError, toGatewayError } from './errors';
export {
  type AssistantContent,
  collectStream,
  type FinishReason,
  type ImagePart,
  type Message,
  type ReasoningEffort,
  resultText,
  type TextPart,
  type TextRequest,
  type TextResult,
  type TextStreamPart,
  type ToolCallPart,
  type ToolChoice,
  type ToolDefinition,
  type ToolResultPart,
  type Usage,
  type UserContent,
} from './text';
export { estimateInputTokens, estimateTextTokens } from './token-estimate';
export { type NativeRequest, nativeBody, nativeRequestFor } from './native-request';
export { forwardingFor, type StreamForwarding } from './stream-forwarding';
export { ACCOUNT_RESOURCES_POLICIES, type AccountResourcesPolicy } from './account-resources';
export { type HostedTool, HOSTED_TOOLS_POLICIES, type HostedToolsPolicy } from './hosted-tools';
export { type GeneratedImage, type ImageInput, type ImageRequest, type ImageResult, type ImageStreamPart, type ImageUsage } from './image';
export { type Deployment, type Group, ModelCatalogue, MODEL_KINDS, type ModelKind, type ModelSpec } from './catalogue';
export { type EmbeddingInput, type EmbeddingRequest, type EmbeddingResult, normalisedVector, shortenedVector } from './embedding';
export { type RerankRequest, type RerankResult } from './rerank';
export {
  MODERATION_CATEGORIES,
  type ModerationCategory,
  type ModerationInput,
  type ModerationRequest,
  type ModerationResult,
  type ModerationVerdict,
} from './moderation';
export {
  DEFAULT_MODERATION_MODEL,
  type ModerationMode,
  type ModerationOutcome,
  type ModerationReport,
  type TextModeration,
} from './text-moderation';
export { type SpeechFormat, type SpeechRequest, type SpeechResult, type SpeechStreamPart } from './speech';
export {
  type TranscriptionRequest,
  type TranscriptionResult,
  type TranscriptionSegment,
  type TranscriptionStreamPart,
} from './transcription';
export {
  ASPECT_RATIOS,
  type AspectRatio,
  type Resolution,
  RESOLUTIONS,
  resolveRatio,
  validateVideoRequest,
  VIDEO_DEFAULTS,
  VIDEO_FAMILY_LIMITS,
  videoDimensions,
  type VideoImage,
  type VideoRequest,
  type VideoRequestDraft,
} from './video-limits';
export { videoCapabilitiesOf } from './video-capabilities';
export {
  canTransition,
  isTerminal,
  TASK_STATUSES,
  taskRequestOf,
  type TaskRequest,
  type TaskStatus,
  type VideoImageInfo,
  type VideoTask,
} from './video-task';
export { statusEvents, transitionTask, type TaskStatusEvent, type TaskStatusPatch, type TaskTransition } from './task-transitions';
export { DelegatedKeys, digestsEqual, hashApiKey, newId, newKeyId, type Principal } from './auth';
export {
  type AuditActor,
  type AuditChange,
  type AuditContext,
  type AuditedChanges,
  type AuditFilter,
  type AuditRecord,
  type ChangeStores,
} from './ports/audit-log.port';
export {
  SecretRequiredError,
  type CatalogueChanges,
  type CatalogueEntry,
  type CatalogueEntryKind,
  type CatalogueRepository,
} from './ports/catalogue-repository.port';
export {
  checkContentKey,
  contentPieces,
  type ContentStore,
  type GeneratedImageStore,
  mediaTypeOfKey,
  type StoredImage,
} from './ports/content-store.port';
export { type ContentProbe, type ContentProbes } from './ports/content-probes.port';
export { type ConversationKind, type ConversationStore, type StoredConversation, type StoredTurn } from './ports/conversation-store.port';
export { type ImageModelPort } from './ports/image-model.port';
export { type EmbeddingModelPort } from './ports/embedding-model.port';
export { type RerankModelPort } from './ports/rerank-model.port';
export { type ModerationModelPort } from './ports/moderation-model.port';
export { type SpeechModelPort } from './ports/speech-model.port';
export { type TranscriptionModelPort } from './ports/transcription-model.port';
export {
  type Account,
  type ApiKeyRecord,
  type KeyChangeRepository,
  type KeyRepository,
  type KeyRole,
  type KeySettings,
  type NewKey,
  type TaskScope,
} from './ports/key-repository.port';
export {
  type AccountQuota,
  type CreditQuota,
  type CreditRefs,
  type KeyQuota,
  type Payer,
  type QuotaRepository,
  type TaskSettlementWrite,
  type UnsettledTask,
} from './ports/quota-repository.port';
export { type RoutingObserver, type UpstreamAttempt } from './ports/routing-observer.port';
export { type TaskChangeFeed } from './ports/task-change-feed.port';
export { type ClaimedTask, type ReleaseOptions, type TaskQueue } from './ports/task-queue.port';
export {
  type Admission,
  type AdmissionRules,
  type AllAccountsTaskFilter,
  type NewVideoTask,
  type TaskListFilter,
  type TaskPatch,
  type TaskRepository,
} from './ports/task-repository.port';
export { type CallContext, type TextModelPort } from './ports/text-model.port';
export { type UsageLog, type UsageRow } from './ports/usage-log.port';
export { type CachedAnswer, type CachePurge, type ResponseCacheStore } from './ports/response-cache-store.port';
export { type MeteredCacheDeps, type ResponseCacheObserver } from './use-cases/metered-response-cache';
export { ResponseCachePurge } from './use-cases/response-cache-purge';
export { ResponseCache } from './use-cases/response-cache';
export {
  type AllAccountsUsageFilter,
  type DailyUsageTotal,
  LATENCY_GROUPINGS,
  type LatencyGrouping,
  USAGE_GROUPINGS,
  USAGE_STATUSES,
  type UsageFilter,
  type UsageGroup,
  type UsageGrouping,
  type UsageLatencyFilter,
  type UsageLatencyGroup,
  type UsageQuery,
  type UsageRecord,
  type UsageSummaryFilter,
} from './ports/usage-query.port';
export { type OperationRef, type VideoArtifact, type VideoModelPort, type VideoStatus } from './ports/video-model.port';
export { type ProbedVideo, type VideoProbe } from './ports/video-probe.port';
export { type WebhookAnswer, type WebhookSender } from './ports/webhook-sender.port';
export {
  type ClaimedDelivery,
  type NewWebhookEndpoint,
  type RecordedAttempt,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointRepository,
  type WebhookOutbox,
} from './ports/webhook-store.port';
export { authenticate, authenticateKeyId } from './use-cases/authenticate';
export { TextGeneration } from './use-cases/text-generation';
export { type CircuitBreakerOptions, DEFAULT_BREAKER_OPTIONS } from './use-cases/circuit-breaker';
export { decodeBase64Strict, imageHasAlpha, MAX_IMAGE_PIXELS, probeClientImage, probeImage } from './image-probe';
export { type ListVideoTasksQuery, type VideoContent, type VideoTaskService } from './use-cases/video-tasks.contract';
export { ImageGeneration } from './use-cases/image-generation';
export { type EmbeddingAnswer, Embeddings } from './use-cases/embeddings';
export { Speech, type SpeechCommand } from './use-cases/speech';
export { Transcription, type TranscriptionCommand } from './use-cases/transcription';
export { Rerank } from './use-cases/rerank';
export { Moderation } from './use-cases/moderation';
export { IMAGE_LIMITS, type ImageCommand, type ImageFile, type PreparedImageCall } from './use-cases/image-request-check';
export { type VideoProviderLookup } from './use-cases/video-target';
export { VideoTasks } from './use-cases/video-tasks';
export { AllAccountTasks, ALL_ACCOUNT_TASKS_MAX_LIMIT, type AllAccountTasksQuery } from './use-cases/all-account-tasks';
export { VideoWorker, type VideoWorkerOptions } from './use-cases/video-worker';
export { ContentSharingCheck } from './use-cases/content-sharing-check';
export { workerLoop } from './use-cases/worker-loop';
export { missingPrice, type ModelPricing } from './pricing';
export { cacheDirectives, type CacheConfig, type CacheDirectives, type CacheStatus } from './response-cache';
export { Billing, type BudgetStatus } from './use-cases/billing';
export { CLI_AUDIT_CONTEXT, DEFAULT_MAX_KEYS_PER_ACCOUNT, KeyAdministration } from './use-cases/key-administration';
export { CatalogueAdministration } from './use-cases/catalogue-administration';
export { CatalogueSync } from './use-cases/catalogue-sync';
export { bootstrapDemoKey, bootstrapFileKeys, shortConfigKey } from './use-cases/key-bootstrap';
export { aliasProblem } from './model-aliases';
export { envReferencePolicy, type EnvReferencePolicy } from './use-cases/env-reference-policy';
export { type KeyChangeFields, type KeyCreateFields, type KeyView } from './use-cases/key-settings';
export {
  accountBounds,
  type AccountBoundsDeps,
  type Caller,
  inheritFromCaller,
  type SelfServiceKeyFields,
} from './use-cases/account-bounds';
export { CachedKeyRepository } from './use-cases/cached-key-repository';
export { type BudgetPeriod, periodStart, usedInPeriod } from './budget-period';
export { decodeDataUrl, imagePartFromUrl, parseDataUrl, urlOfImagePart } from './data-url';
export { taskErrorOf } from './task-errors';
export { checkReasoningEffort, mayReason } from './reasoning';
export { type Warning, unsupportedSetting, droppedContent, distinctWarnings, warningText, warningsHeader } from './warnings';
export { DeploymentSelector, type RoutedCallDeps } from './use-cases/deployment-selection';
export { ResponsesConversation } from './use-cases/responses-conversation';
export { StoredConversations } from './use-cases/stored-conversations';
export { auditTaskBooks } from './use-cases/task-books-audit';
export { isForbiddenAddress } from './network-address';
export { newEventId, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhooks/webhook-events';
export { newWebhookSecret } from './webhooks/webhook-signing';
export { DEFAULT_WEBHOOK_RETRY, type WebhookRetryPolicy } from './webhooks/webhook-retry';
export { checkWebhookUrl, hostOf, isAllowedHost, parseAllowedHosts, type WebhookUrlRule } from './webhooks/webhook-url';
export { WebhookEndpoints } from './webhooks/webhook-endpoints';
export {
  type AccountAlert,
  type AccountAlertStore,
  DEFAULT_BUDGET_ALERT_THRESHOLDS,
  DEFAULT_KEY_EXPIRY_ALERT_HOURS,
  type ExpiringKey,
  type KeyBudgetState,
  parseBudgetAlertThresholds,
  sweepAccountAlerts,
} from './webhooks/account-alerts';
export { WebhookDispatcher } from './webhooks/webhook-dispatcher';
export { DEFAULT_TASK_WATCH_LIMITS, TaskWatch, type TaskWatchLimits } from './webhooks/task-watch';
export { maskSecrets } from './audit-mask';
export { credentialHeaders, mapCredentialHeaders } from './provider-credentials';
export { forbiddenRole, roleOf } from './key-roles';
export { type MinuteCount, type RateLimitStore, type SlotRelease } from './ports/rate-limit.port';
export {
  type AccountLimits,
  createKeyRateLimiter,
  createStreamSlots,
  createTokenRateLimiter,
  DEFAULT_ACCOUNT_LIMITS,
  type LimitCounts,
  limitCounts,
  minuteCounter,
  type MinuteCounter,
  retryAfterSeconds,
  type SharedStorePolicy,
  type StreamSlots,
} from './use-cases/rate-limits';
export { type SsoGrant, type SsoLogin, type SsoSession, type SsoSessionStore } from './ports/sso-session.port';
export { type TaskStatistics, type TaskStatusCount } from './ports/task-statistics.port';
export { FILE_LIMITS, type FilePurpose, type StoredFile } from './files';
export { type FileListQuery, type FileStore } from './ports/file-store.port';
export { Files, fileTooLarge } from './use-cases/files';
export { batchEnded, batchEvent, succeeded, UNRUN, type Batch, type BatchEndpoints, type BatchLineInput, type LineOutcome } from './batch';
export { type BatchListQuery, type BatchStore, type ClaimedLine } from './ports/batch-store.port';
export { Batches } from './use-cases/batches';
export { BatchRunner, type LineDispatch } from './use-cases/batch-runner';
export { type McpTool, type McpToolResult } from './mcp/mcp';
export { BUILTIN_SIMULATOR_URL, checkMcpConfig, type McpConfig, type McpOAuthConfig, type McpServerConfig } from './mcp/mcp-config';
export { type McpUpstreamPort } from './ports/mcp-upstream.port';
export { McpGateway } from './use-cases/mcp-gateway';
export {
  McpServerAdministration,
  type McpServerChange,
  type McpServerFields,
  type McpServerView,
} from './use-cases/mcp-server-administration';
export { type McpServerChanges, type McpServerRepository, type RegisteredMcpServer } from './ports/mcp-server-repository.port';
export { type HostedMcpItem, type HostedMcpServer, type McpApprovalAnswer, type McpApprovalRule } from './hosted-mcp';
export { HostedMcp } from './use-cases/hosted-mcp';
export { GuardrailSet, type GuardrailSpec } from './guardrails/guardrail';
export { guardrailConfigProblem } from './guardrails/guardrail-config';
export { Guardrails } from './use-cases/guardrails';

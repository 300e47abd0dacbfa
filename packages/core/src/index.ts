export {
  ERROR_REASONS,
  type ErrorReason,
  GatewayError,
  type GatewayErrorOptions,
  invalid,
  isGatewayError,
  type ReasonInfo,
  toGatewayError,
} from './errors';
export {
  type AssistantContent,
  collectStream,
  emptyUsage,
  type FinishReason,
  type ImagePart,
  type Message,
  type ReasoningEffort,
  type ReasoningPart,
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
export { estimateInputTokens } from './token-estimate';
export { type NativeAnswer, type NativeEventPart, type NativeRequest, nativeBody, nativeRequestFor } from './native-request';
export {
  ACCOUNT_RESOURCE_FIELDS,
  ACCOUNT_RESOURCES_POLICIES,
  accountResourcesFor,
  type AccountResourcesPolicy,
  DEFAULT_ACCOUNT_RESOURCES_POLICY,
} from './account-resources';
export {
  DEFAULT_HOSTED_TOOLS_POLICY,
  type HostedTool,
  HOSTED_TOOLS_POLICIES,
  type HostedToolsPolicy,
  hostedToolsFor,
} from './hosted-tools';
export {
  type GeneratedImage,
  type ImageFormat,
  type ImageInput,
  type ImageRequest,
  type ImageResult,
  type ImageStreamPart,
  type ImageUsage,
} from './image';
export {
  DEFAULT_IMAGE_CAPABILITIES,
  type Deployment,
  type Group,
  type ImageCapabilities,
  type KeyScope,
  imageCapabilitiesOf,
  ModelCatalogue,
  type ModelKind,
  type ModelSpec,
  type VideoFamily,
  type VideoTier,
} from './catalogue';
export {
  ASPECT_RATIOS,
  type AspectRatio,
  type FamilyLimits,
  type Resolution,
  RESOLUTIONS,
  resolutionsFor,
  resolveRatio,
  validateVideoRequest,
  VIDEO_DEFAULTS,
  VIDEO_FAMILY_LIMITS,
  videoDimensions,
  videoLimitsOf,
  type VideoImage,
  type VideoRequest,
  type VideoRequestDraft,
} from './video-limits';
export { videoCapabilitiesOf, type VideoCapabilities, type VideoInputMode } from './video-capabilities';
export {
  canTransition,
  isTerminal,
  TASK_STATUSES,
  taskRequestOf,
  type TaskDeployment,
  type TaskError,
  type TaskRequest,
  type TaskStatus,
  type VideoDelivery,
  type VideoImageInfo,
  type VideoTask,
} from './video-task';
export { statusEvents, transitionTask, type TaskStatusEvent, type TaskStatusPatch, type TaskTransition } from './task-transitions';
export { digestsEqual, generateApiKey, hashApiKey, newId, newKeyId, type Principal } from './auth';
export {
  type Account,
  type AccountQuota,
  type CreditQuota,
  type KeyQuota,
  type Payer,
  type Admission,
  type AdmissionRules,
  type ApiKeyRecord,
  type KeyLimits,
  type KeySettings,
  type NewKey,
  NO_KEY_LIMITS,
  type CallContext,
  type ClaimedTask,
  checkContentKey,
  contentPieces,
  type ContentStore,
  type GeneratedImageStore,
  type StoredImage,
  type CreditRefs,
  type DailyUsageTotal,
  extensionOf,
  type ImageModelPort,
  type KeyRepository,
  mediaTypeOfKey,
  type NewVideoTask,
  type OperationRef,
  type QuotaRepository,
  type TaskSettlementWrite,
  type UnsettledTask,
  type ReleaseOptions,
  type AttemptAnswer,
  type AttemptCall,
  type BreakerTransition,
  type RoutingObserver,
  type UpstreamAttempt,
  type ResponseStore,
  type StoredConversation,
  type StoredResponse,
  type TaskListFilter,
  type TaskPatch,
  type TaskQueue,
  type TaskRepository,
  type TextModelPort,
  type UsageFilter,
  type AllAccountsUsageFilter,
  type UsageGroup,
  type UsageGrouping,
  USAGE_GROUPINGS,
  USAGE_STATUSES,
  LATENCY_GROUPINGS,
  type LatencyGrouping,
  type UsageLatencyFilter,
  type UsageLatencyGroup,
  type UsageSummaryFilter,
  type UsageLog,
  type UsageQuery,
  type UsageRecord,
  type UsageRow,
  type UsageVideo,
  type VideoShape,
  type VideoArtifact,
  type ProbedVideo,
  type VideoProbe,
  type VideoModelPort,
  type VideoStatus,
  type ClaimedDelivery,
  type DeliveryOutcome,
  type DeliveryState,
  type NewWebhookEndpoint,
  type RecordedAttempt,
  type TaskChangeFeed,
  type WebhookAnswer,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointRepository,
  type WebhookOutbox,
  type WebhookSender,
} from './ports';
export { authenticate } from './use-cases/authenticate';
export { resolveModel } from './use-cases/resolve-model';
export { type ProviderLookup, type TextCallMeta, TextGeneration, type TextGenerationDeps } from './use-cases/text-generation';
export {
  CircuitBreaker,
  type CircuitBreakerOptions,
  type CircuitPermit,
  type CircuitState,
  DEFAULT_BREAKER_OPTIONS,
} from './use-cases/circuit-breaker';
export { decodeBase64Strict, imageHasAlpha, MAX_IMAGE_PIXELS, type ProbedImage, probeClientImage, probeImage } from './image-probe';
export {
  type CreateVideoTaskInput,
  type ListVideoTasksQuery,
  type RemixVideoTaskInput,
  type VideoContent,
  type VideoTaskService,
} from './use-cases/video-tasks.contract';
export { type ImageCallMeta, ImageGeneration, type ImageProviderLookup } from './use-cases/image-generation';
export {
  IMAGE_LIMITS,
  prepareImageCall,
  toImageInput,
  type ImageCommand,
  type ImageFile,
  type ImageParam,
  type PreparedImageCall,
} from './use-cases/image-request-check';
export { type VideoProviderLookup } from './use-cases/video-target';
export {
  deleteContent,
  IDEMPOTENCY_WINDOW_SECONDS,
  newTaskId,
  taskNotFound,
  VideoTasks,
  type VideoTasksDeps,
} from './use-cases/video-tasks';
export { type WorkerLog } from './use-cases/video-task-driver';
export { VideoWorker, type VideoWorkerDeps, type VideoWorkerOptions } from './use-cases/video-worker';
export { OutageLog } from './use-cases/outage-log';
export {
  imageCost,
  missingPrice,
  type ModelPricing,
  pricingOf,
  settleDeliveredVideo,
  textCost,
  videoCost,
  type VideoSettlement,
} from './billing';
export { Billing, type BudgetStatus, quotaExhaustedError } from './use-cases/billing';
export { BUDGET_PERIODS, type BudgetPeriod, periodEnd, periodStart, usedInPeriod } from './budget-period';
export { decodeDataUrl, imagePartFromUrl, parseDataUrl, urlOfImagePart, type DataUrl } from './data-url';
export { taskErrorOf } from './task-errors';
export { checkReasoningEffort, mayReason, UNSUPPORTED_REASONING, type ReasoningAsk } from './reasoning';
export { type Warning, unsupportedSetting, droppedContent, distinctWarnings, warningText, warningsHeader } from './warnings';
export {
  DeploymentSelector,
  type RoutedCallDeps,
  isUpstreamFault,
  orderDeployments,
  type DeploymentAttempt,
  type SelectionOptions,
} from './use-cases/deployment-selection';
export {
  conversationAfter,
  type ConversationTurn,
  type ResponseDocument,
  ResponsesConversation,
  type ResponsesConversationDeps,
} from './use-cases/responses-conversation';
export { auditTaskBooks, type TaskBooksAuditResult } from './use-cases/task-books-audit';
export { embeddedIpv4, isForbiddenAddress } from './network-address';
export {
  eventTypeOf,
  isWebhookEventType,
  newEventId,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventBody,
  type WebhookEventType,
  webhookEventBody,
} from './webhooks/webhook-events';
export { newWebhookSecret, signWebhook, WEBHOOK_SECRET_PREFIX, type WebhookHeaders } from './webhooks/webhook-signing';
export { DEFAULT_WEBHOOK_RETRY, nextAttemptAt, type WebhookRetryPolicy } from './webhooks/webhook-retry';
export { checkWebhookUrl, hostOf, isAllowedHost, parseAllowedHosts, type WebhookUrlRule } from './webhooks/webhook-url';
export { type CreateEndpointInput, endpointNotFound, MAX_ENDPOINTS_PER_ACCOUNT, WebhookEndpoints } from './webhooks/webhook-endpoints';
export {
  type AccountAlert,
  type AccountAlertOptions,
  type AccountAlertStore,
  type AccountAlertType,
  budgetAlert,
  DEFAULT_BUDGET_ALERT_THRESHOLDS,
  DEFAULT_KEY_EXPIRY_ALERT_HOURS,
  type ExpiringKey,
  expiryAlert,
  type KeyBudgetState,
  parseBudgetAlertThresholds,
  reachedThresholds,
  sweepAccountAlerts,
} from './webhooks/account-alerts';
export { WebhookDispatcher, type WebhookDispatcherDeps, type WebhookDispatcherOptions } from './webhooks/webhook-dispatcher';
export { DEFAULT_TASK_WATCH_LIMITS, TaskWatch, type TaskWatchDeps, type TaskWatchLimits, type TaskWatcher } from './webhooks/task-watch';
export {
  type AuditActor,
  type AuditChange,
  type AuditContext,
  type AuditFilter,
  type AuditRecord,
  type AuditedChanges,
  type ChangeStores,
  type KeyRole,
  KEY_ROLES,
  type TaskScope,
  TASK_SCOPES,
} from './ports';
export { maskSecrets } from './audit-mask';
export { forbiddenRole, roleOf } from './key-roles';
export { seesTask, taskOwnerFilter } from './task-scope';

export { type CallContext, type TextModelPort } from './text-model.port';
export { type ImageModelPort } from './image-model.port';
export { type OperationRef, type VideoArtifact, type VideoModelPort, type VideoStatus } from './video-model.port';
export {
  type Account,
  type ApiKeyRecord,
  type KeyChangeRepository,
  type KeyLimits,
  type KeyRepository,
  type KeyRole,
  KEY_ROLES,
  type KeySettings,
  type TaskScope,
  TASK_SCOPES,
  type NewKey,
  NO_KEY_LIMITS,
} from './key-repository.port';
export { type UsageLog, type UsageRow, type UsageVideo, type VideoShape } from './usage-log.port';
export { type ProbedVideo, type VideoProbe } from './video-probe.port';
export {
  type Admission,
  type AllAccountsTaskFilter,
  type AdmissionRules,
  type NewVideoTask,
  type TaskListFilter,
  type TaskPatch,
  type TaskRepository,
} from './task-repository.port';
export { type ConversationKind, type ConversationStore, type StoredConversation, type StoredTurn } from './conversation-store.port';
export { type ClaimedTask, type ReleaseOptions, type TaskQueue } from './task-queue.port';
export {
  checkContentKey,
  contentPieces,
  type ContentStore,
  extensionOf,
  type GeneratedImageStore,
  mediaTypeOfKey,
  type StoredImage,
} from './content-store.port';
export {
  type DailyUsageTotal,
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
  type UsageQuery,
  type UsageRecord,
  type UsageSummaryFilter,
} from './usage-query.port';
export {
  type AccountQuota,
  type CreditQuota,
  type CreditRefs,
  type KeyQuota,
  type Payer,
  type QuotaRepository,
  type TaskSettlementWrite,
  type UnsettledTask,
} from './quota-repository.port';
export {
  type AttemptAnswer,
  type AttemptCall,
  type BreakerTransition,
  type RoutingObserver,
  type UpstreamAttempt,
} from './routing-observer.port';
export {
  type ClaimedDelivery,
  type DeliveryOutcome,
  type DeliveryState,
  type NewWebhookEndpoint,
  type RecordedAttempt,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointRepository,
  type WebhookOutbox,
} from './webhook-store.port';
export { type TaskChangeFeed } from './task-change-feed.port';
export { type WebhookAnswer, type WebhookSender } from './webhook-sender.port';
export {
  type AuditActor,
  type AuditChange,
  type AuditContext,
  type AuditFilter,
  type AuditRecord,
  type AuditedChanges,
  type ChangeStores,
} from './audit-log.port';

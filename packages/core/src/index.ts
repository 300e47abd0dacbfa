export * from './errors';
export { decodeDataUrl, imagePartFromUrl, parseDataUrl, urlOfImagePart, type DataUrl } from './data-url';
export { taskErrorOf } from './task-errors';
export { checkReasoningEffort, UNSUPPORTED_REASONING, type ReasoningAsk } from './reasoning';
export { type Warning, unsupportedSetting, droppedContent, distinctWarnings, warningText, warningsHeader } from './warnings';
export * from './text';
export * from './token-estimate';
export * from './image';
export * from './catalogue';
export * from './video-limits';
export * from './video-task';
export * from './auth';
export * from './ports';
export * from './use-cases/authenticate';
export * from './use-cases/resolve-model';
export * from './use-cases/text-generation';
export * from './use-cases/circuit-breaker';
export {
  DeploymentSelector,
  isUpstreamFault,
  orderDeployments,
  type DeploymentAttempt,
  type SelectionOptions,
} from './use-cases/deployment-selection';
export * from './image-probe';
export * from './use-cases/video-tasks.contract';
export * from './use-cases/image-generation';
export {
  IMAGE_LIMITS,
  prepareImageCall,
  toImageInput,
  type ImageCommand,
  type ImageFile,
  type ImageParam,
  type PreparedImageCall,
} from './use-cases/image-request-check';
export * from './use-cases/video-target';
export * from './use-cases/video-tasks';
export * from './use-cases/video-task-driver';
export * from './use-cases/video-worker';
export * from './billing';
export * from './use-cases/billing';
export * from './use-cases/responses-conversation';
export { auditTaskBooks, type TaskBooksAuditResult } from './use-cases/task-books-audit';

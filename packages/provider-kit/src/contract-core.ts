/**
 * The domain names of the provider contract: exactly what an adapter (built-in or loaded from outside) needs from the
 * core, re-exported so that provider packages import them through @gateway/provider-kit and nothing else
 * (packages/server/test/architecture.test.ts enforces it; docs/providers/writing-an-adapter.md, "The contract").
 * Adding a name here widens the contract: note it in ADAPTER-CONTRACT-CHANGELOG.md.
 */
export {
  // the ports and what crosses them
  type CallContext,
  type TextModelPort,
  type TextRequest,
  type TextResult,
  type TextStreamPart,
  type Message,
  type AssistantContent,
  type ImagePart,
  type ToolChoice,
  type ReasoningEffort,
  type FinishReason,
  type Usage,
  type Warning,
  type ImageModelPort,
  type ImageRequest,
  type ImageResult,
  type ImageInput,
  type ImageStreamPart,
  type ImageUsage,
  type GeneratedImage,
  type VideoModelPort,
  type VideoRequest,
  type VideoStatus,
  type VideoArtifact,
  type VideoImage,
  type OperationRef,
  type Resolution,
  type AspectRatio,
  RESOLUTIONS,
  ASPECT_RATIOS,
  // the closed error table
  GatewayError,
  invalid,
  // the helpers the built-ins share: warnings, native pass-through, image and video geometry, ids
  unsupportedSetting,
  droppedContent,
  distinctWarnings,
  nativeBody,
  nativeRequestFor,
  probeImage,
  resolveRatio,
  videoDimensions,
  newId,
} from '@gateway/core';

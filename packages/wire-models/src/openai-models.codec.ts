import type { ModelSpec } from '@gateway/core';
import { MODEL_CREATED_UNIX } from './model-metadata';
import { encodeOpenAiVideoCapabilities } from './video-capabilities.codec';

/**
 * `owned_by` names the gateway, not the upstream: which provider serves a model is the operator's business. A video
 * model carries the `video_capabilities` extension (docs/formats/model-lists.md); the SDK keeps unknown fields.
 */
export function encodeOpenAiModel(m: ModelSpec): OpenAiModelEntry {
  const entry = { id: m.id, object: 'model' as const, created: MODEL_CREATED_UNIX, owned_by: 'gateway' };
  return m.kind === 'video' ? { ...entry, video_capabilities: encodeOpenAiVideoCapabilities(m) } : entry;
}

export interface OpenAiModelEntry {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  video_capabilities?: ReturnType<typeof encodeOpenAiVideoCapabilities>;
}

export function encodeOpenAiModelList(models: ModelSpec[]) {
  return { object: 'list', data: models.map(encodeOpenAiModel) };
}

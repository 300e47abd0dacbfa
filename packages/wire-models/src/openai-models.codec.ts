import type { ModelSpec } from '@gateway/core';
import { MODEL_CREATED_UNIX } from './model-metadata';

/** `owned_by` names the gateway, not the upstream: which provider serves a model is the operator's business. */
export function encodeOpenAiModel(m: ModelSpec) {
  return { id: m.id, object: 'model', created: MODEL_CREATED_UNIX, owned_by: 'gateway' };
}

export function encodeOpenAiModelList(models: ModelSpec[]) {
  return { object: 'list', data: models.map(encodeOpenAiModel) };
}

import type { Principal } from '../auth';
import type { ModelCatalogue, ModelKind, ModelSpec } from '../catalogue';
import { GatewayError, invalid } from '../errors';

/**
 * The key's group must include the model (503 otherwise, as the seed says; an unknown model is
 * indistinguishable from one outside the group). A model of another kind is a 400.
 */
export function resolveModel(catalogue: ModelCatalogue, principal: Principal, modelId: unknown, kind: ModelKind): ModelSpec {
  if (typeof modelId !== 'string' || modelId.length === 0) {
    throw invalid('missing_model', 'The "model" field is required.', 'model');
  }
  const model = catalogue.get(modelId);
  if (!model || !catalogue.groupAllows(principal.group, modelId)) {
    throw new GatewayError('model_not_in_group', `Model ${JSON.stringify(modelId.slice(0, 200))} is not available for this key's group.`, {
      code: 'model_not_in_group',
      param: 'model',
    });
  }
  if (model.kind !== kind) {
    throw invalid('model_kind_mismatch', `Model ${modelId} is a ${model.kind} model and cannot serve ${kind} requests.`, 'model');
  }
  return model;
}

import type { Principal } from '../auth';
import type { ModelCatalogue, ModelKind, ModelSpec } from '../catalogue';
import { GatewayError, invalid } from '../errors';
import { batchPriced } from '../pricing';

/** Long enough for any real id, short enough that a hostile one does not fill the answer. */
const MAX_NAMED_ID = 200;

/**
 * The model a request names. An id the gateway does not know is a 404 naming it (clients stop at once
 * on their own model-not-found message); a known model outside the key's group (or its allowlist) is the seed's 503, not
 * retryable, or, where the deployment chose it, a 403 in each format's permission error (the code stays
 * model_not_in_group either way); a model of another kind is a 400.
 */
export function resolveModel(catalogue: ModelCatalogue, principal: Principal, modelId: unknown, kind: ModelKind): ModelSpec {
  if (typeof modelId !== 'string' || modelId.length === 0) {
    throw invalid('missing_model', 'The "model" field is required.', 'model');
  }
  const model = catalogue.get(modelId);
  const named = modelId.slice(0, MAX_NAMED_ID);
  if (!model) {
    throw new GatewayError('model_not_found', `The model ${JSON.stringify(named)} does not exist.`, {
      code: 'model_not_found',
      param: 'model',
      subject: named,
    });
  }
  // a model outside the key's allowlist is refused exactly as one outside its group
  if (!catalogue.keyAllows(principal, model.id)) {
    const reason = catalogue.outsideGroupStatus === 403 ? 'permission_denied' : 'model_not_in_group';
    throw new GatewayError(reason, `Model ${JSON.stringify(named)} is not available for this key.`, {
      code: 'model_not_in_group',
      param: 'model',
    });
  }
  if (model.kind !== kind) {
    throw invalid('model_kind_mismatch', `Model ${modelId} is a ${model.kind} model and cannot serve ${kind} requests.`, 'model');
  }
  return batchPriced(model, principal);
}

import { Router, type ErrorRequestHandler, type Request } from 'express';
import { GatewayError } from '@gateway/core';
import { principalOf, requireKey, sendError } from '@gateway/http-kit';
import { encodeAnthropicModel, pageAnthropicModels } from './anthropic-models.codec';
import { modelListDialect } from './model-list-dialect';
import type { ModelsRouterDeps } from './models-router-deps';
import { encodeOpenAiModel, encodeOpenAiModelList } from './openai-models.codec';

const isAnthropic = (req: Request) => modelListDialect(req) === 'anthropic';

/**
 * `GET /v1/models[/{id}]`: OpenAI's shape, or Anthropic's when `anthropic-version` is present (Gemini callers are
 * answered by geminiModelsRouter, mounted first: model-list-dialect.ts). The Anthropic shape lists text models only,
 * the ones `/v1/messages` can call.
 */
export function v1ModelsRouter(deps: ModelsRouterDeps): Router {
  const router = Router();
  // Bearer for both SDKs; `x-api-key` for the Anthropic 0.x SDK.
  const auth = requireKey(deps.authenticate, ['x-api-key']);

  router.get('/v1/models', auth, (req, res) => {
    const key = principalOf(res);
    if (isAnthropic(req)) res.json(pageAnthropicModels(deps.catalogue.listForKey(key, 'text'), req.query));
    else res.json(encodeOpenAiModelList(deps.catalogue.listForKey(key)));
  });

  router.get('/v1/models/:id', auth, (req, res) => {
    const id = String(req.params.id);
    const model = deps.catalogue.get(id);
    const visible = model && deps.catalogue.keyAllows(principalOf(res), id) && (!isAnthropic(req) || model.kind === 'text');
    if (!model || !visible) {
      throw new GatewayError('not_found', `The model ${JSON.stringify(id.slice(0, 200))} does not exist or is not available to this key.`, {
        code: 'model_not_found',
        param: 'model',
      });
    }
    res.json(isAnthropic(req) ? encodeAnthropicModel(model) : encodeOpenAiModel(model));
  });

  const errors: ErrorRequestHandler = (e, req, res, _next) =>
    sendError(res, e, { gemini: deps.render.google, anthropic: deps.render.anthropic, openai: deps.render.openai }[modelListDialect(req)]);
  router.use(errors);
  return router;
}

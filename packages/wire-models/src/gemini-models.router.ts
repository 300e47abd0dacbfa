import { Router, type RequestHandler } from 'express';
import { GatewayError } from '@gateway/core';
import { errorMiddleware, geminiPaths, principalOf, requireKey } from '@gateway/http-kit';
import { encodeGeminiModel, pageGeminiModels } from './gemini-models.codec';
import { modelListDialect } from './model-list-dialect';
import type { ModelsRouterDeps } from './models-router-deps';

/** `models/x:generateContent` and friends belong to other routers: only a plain model id is ours. */
const plainModelId: RequestHandler = (req, _res, next) => (String(req.params.model).includes(':') ? next('route') : next());

/** `/v1/models` is shared with the OpenAI and Anthropic lists: it is Gemini's only when the caller authenticates as Gemini does. */
const geminiCaller: RequestHandler = (req, _res, next) =>
  `${req.baseUrl}${req.path}`.startsWith('/v1beta/') || modelListDialect(req) === 'gemini' ? next() : next('route');

/**
 * `GET /v1beta/models` (paged) and `GET /v1beta/models/{model}`, the same under `/v1` for Gemini callers; the key's
 * group only, errors in Google's shape.
 */
export function geminiModelsRouter(deps: ModelsRouterDeps): Router {
  const router = Router();
  const auth = requireKey(deps.authenticate, ['x-goog-api-key']);

  router.get(geminiPaths('/models'), geminiCaller, auth, (req, res) => {
    res.json(pageGeminiModels(deps.catalogue.listForKey(principalOf(res)), req.query));
  });

  router.get(geminiPaths('/models/:model'), plainModelId, geminiCaller, auth, (req, res) => {
    const id = String(req.params.model);
    const model = deps.catalogue.get(id);
    // Outside the key's group or allowlist looks exactly like absent, so the list of models cannot be probed.
    if (!model || !deps.catalogue.keyAllows(principalOf(res), id)) {
      throw new GatewayError('not_found', `Model models/${id.slice(0, 200)} is not found.`, { code: 'model_not_found', param: 'model' });
    }
    res.json(encodeGeminiModel(model));
  });

  router.use(errorMiddleware(deps.render.google));
  return router;
}

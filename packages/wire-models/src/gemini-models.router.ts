import { Router, type RequestHandler } from 'express';
import { GatewayError } from '@gateway/core';
import { errorMiddleware, principalOf, requireKey } from '@gateway/http-kit';
import { encodeGeminiModel, pageGeminiModels } from './gemini-models.codec';
import type { ModelsRouterDeps } from './models-router-deps';

/** `models/x:generateContent` and friends belong to other routers: only a plain model id is ours. */
const plainModelId: RequestHandler = (req, _res, next) => (String(req.params.model).includes(':') ? next('route') : next());

/** `GET /v1beta/models` (paged) and `GET /v1beta/models/{model}`, the key's group only, errors in Google's shape. */
export function geminiModelsRouter(deps: ModelsRouterDeps): Router {
  const router = Router();
  const auth = requireKey(deps.authenticate, ['x-goog-api-key']);

  router.get('/v1beta/models', auth, (req, res) => {
    res.json(pageGeminiModels(deps.catalogue.listForKey(principalOf(res)), req.query));
  });

  router.get('/v1beta/models/:model', plainModelId, auth, (req, res) => {
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

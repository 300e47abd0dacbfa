import type { RequestHandler } from 'express';
import { GatewayError, type ModelCatalogue, type Principal } from '@gateway/core';
import { pathParam, routeOf } from '@gateway/http-kit';
import { ANTHROPIC_PAGE_LIMIT, encodeAnthropicModel, pageAnthropicModels } from './anthropic-models.codec';
import { encodeGeminiModel, pageGeminiModels } from './gemini-models.codec';
import { modelListDialect, type ModelListDialect } from './model-list-dialect';
import {
  anthropicModel,
  anthropicPage,
  anthropicVersion,
  geminiModel,
  geminiPage,
  geminiPaging,
  openAiList,
  openAiModel,
  q,
} from './models.openapi';
import { encodeOpenAiModel, encodeOpenAiModelList } from './openai-models.codec';

export interface ModelsRouterDeps {
  catalogue: ModelCatalogue;
}

/** The error shapes the lists answer in besides OpenAI's, by name: their packages define them. */
export const ANTHROPIC_SHAPE = 'anthropic';
export const GOOGLE_SHAPE = 'google';
const SHAPE_OF: Record<ModelListDialect, string> = { gemini: GOOGLE_SHAPE, anthropic: ANTHROPIC_SHAPE, openai: 'openai' };

/** `models/x:generateContent` and friends belong to other formats: only a plain model id is ours. */
const plainModelId: RequestHandler = (req, _res, next) =>
  String(req.params.model ?? req.params.id).includes(':') ? next('route') : next();

/** Outside the key's group or allowlist looks exactly like absent, so the list of models cannot be probed. */
function geminiModel_(deps: ModelsRouterDeps, principal: Principal, id: string) {
  const model = deps.catalogue.get(id);
  if (!model || !deps.catalogue.keyAllows(principal, id))
    throw new GatewayError('not_found', `Model models/${id.slice(0, 200)} is not found.`, { code: 'model_not_found', param: 'model' });
  return model;
}

const route = routeOf<ModelsRouterDeps>();
// Lists only (the model calls under these paths are other formats' routes): a dashboard session may read them too.
const google = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-goog-api-key'], session: true } as const;
// Bearer for both SDKs; x-api-key for the Anthropic 0.x SDK; x-goog-api-key for @google/genai 3.x, which calls /v1.
const v1 = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-api-key', 'x-goog-api-key'], session: true } as const;

/**
 * `GET /v1beta/models[/{model}]` in Google's shape; `GET /v1/models[/{id}]` in the caller's own dialect, read from how
 * it authenticates (model-list-dialect.ts): Google's for @google/genai 3.x (which calls `/v1`), Anthropic's when
 * `anthropic-version` is sent (text models only, the ones `/v1/messages` can call), OpenAI's otherwise.
 */
export const modelsRoutes = [
  route({
    method: 'get',
    path: '/v1beta/models',
    summary: 'List models (Gemini shape)',
    description: "The models of the key's group.",
    format: 'model-lists',
    auth: google,
    params: geminiPaging(''),
    response: {
      description: 'One page; `nextPageToken` only when more follow.',
      content: { 'application/json': geminiPage },
    },
    errors: 'google',
    async handle({ deps, principal }, req, res) {
      res.json(pageGeminiModels(deps.catalogue.listForKey(principal), req.query));
    },
  }),
  route({
    method: 'get',
    path: '/v1beta/models/{model}',
    summary: 'Read one model (Gemini shape)',
    format: 'model-lists',
    auth: google,
    params: [pathParam('model', "A model id without `models/`; outside the key's group reads as absent.")],
    response: { description: 'The model.', content: { 'application/json': geminiModel } },
    errors: 'google',
    first: [plainModelId],
    handle({ deps, principal }, req, res) {
      res.json(encodeGeminiModel(geminiModel_(deps, principal, String(req.params.model))));
    },
  }),
  route({
    method: 'get',
    path: '/v1/models',
    summary: 'List models (OpenAI, Anthropic or Gemini shape)',
    description:
      "The caller's own dialect, by how it authenticates: Gemini's page for `x-goog-api-key` or `?key=` (@google/genai 3.x calls `/v1`), Anthropic's when `anthropic-version` is sent, OpenAI's list otherwise.",
    format: 'model-lists',
    auth: v1,
    params: [
      anthropicVersion,
      q('limit', `Anthropic shape only: page size 1–${ANTHROPIC_PAGE_LIMIT.max} (default ${ANTHROPIC_PAGE_LIMIT.default}).`, {
        type: 'integer',
        minimum: 1,
        maximum: ANTHROPIC_PAGE_LIMIT.max,
      }),
      q('after_id', 'Anthropic shape only: page forward after this model id.'),
      q('before_id', 'Anthropic shape only: page backward before this model id.'),
      ...geminiPaging('Gemini shape only: '),
    ],
    response: {
      description: "OpenAI's `list`, Anthropic's page when `anthropic-version` is sent, Gemini's page for a Gemini key.",
      content: { 'application/json': { anyOf: [openAiList, anthropicPage, geminiPage] } },
    },
    errors: ['openai', 'anthropic', 'google'],
    errorShapeFor: (req) => SHAPE_OF[modelListDialect(req)],
    handle({ deps, principal }, req, res) {
      const dialect = modelListDialect(req);
      if (dialect === 'gemini') res.json(pageGeminiModels(deps.catalogue.listForKey(principal), req.query));
      else if (dialect === 'anthropic') res.json(pageAnthropicModels(deps.catalogue.listForKey(principal, 'text'), req.query));
      else res.json(encodeOpenAiModelList(deps.catalogue.listForKey(principal)));
    },
  }),
  route({
    method: 'get',
    path: '/v1/models/{id}',
    summary: 'Read one model (OpenAI, Anthropic or Gemini shape)',
    description: 'The shape is chosen as on `GET /v1/models`.',
    format: 'model-lists',
    auth: v1,
    params: [pathParam('id', "A model id of the key's group."), anthropicVersion],
    response: { description: 'The model.', content: { 'application/json': { anyOf: [openAiModel, anthropicModel, geminiModel] } } },
    errors: ['openai', 'anthropic', 'google'],
    errorShapeFor: (req) => SHAPE_OF[modelListDialect(req)],
    first: [plainModelId],
    handle({ deps, principal }, req, res) {
      const id = String(req.params.id);
      const dialect = modelListDialect(req);
      if (dialect === 'gemini') return void res.json(encodeGeminiModel(geminiModel_(deps, principal, id)));
      const model = deps.catalogue.get(id);
      const visible = model && deps.catalogue.keyAllows(principal, id) && (dialect !== 'anthropic' || model.kind === 'text');
      if (!model || !visible) {
        throw new GatewayError(
          'not_found',
          `The model ${JSON.stringify(id.slice(0, 200))} does not exist or is not available to this key.`,
          {
            code: 'model_not_found',
            param: 'model',
          },
        );
      }
      res.json(dialect === 'anthropic' ? encodeAnthropicModel(model) : encodeOpenAiModel(model));
    },
  }),
];

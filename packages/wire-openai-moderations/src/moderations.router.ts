import type { Moderation } from '@gateway/core';
import { jsonBody, jsonRequestBody, openAiErrorShape, routeOf, sendJsonAnswer, type WireFormat } from '@gateway/http-kit';
import { newModerationId } from './moderation-id';
import { decodeModerationInput, encodeModerationResponse } from './moderations.codec';
import { DEFAULT_MODERATION_MODEL, moderationRequestSchema, type ModerationRequestBody } from './moderations.request.schema';

export interface ModerationsRouterDeps {
  moderation: Moderation;
}

const categoryMap = { type: 'object', additionalProperties: true };

const moderationResult = {
  description: 'One result per input: `flagged`, the 13 `categories`, `category_scores` and `category_applied_input_types`.',
  content: {
    'application/json': {
      type: 'object',
      required: ['id', 'model', 'results'],
      properties: {
        id: { type: 'string' },
        model: { type: 'string' },
        results: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              flagged: { type: 'boolean' },
              categories: categoryMap,
              category_scores: categoryMap,
              category_applied_input_types: categoryMap,
            },
          },
        },
      },
    },
  },
};

const route = routeOf<ModerationsRouterDeps>();

export const moderationsRoutes = [
  route({
    method: 'post',
    path: '/v1/moderations',
    batch: { format: 'openai', kind: 'moderation' },
    summary: 'Classify text and images against moderation categories',
    description:
      '`input`: a string, strings (one result each), or the text and `image_url` parts of one input. `model` defaults to `omni-moderation-latest`.',
    format: 'openai-moderations',
    auth: { kind: 'api-key', role: 'member' },
    body: jsonRequestBody<ModerationRequestBody>(moderationRequestSchema),
    response: moderationResult,
    errors: 'openai',
    parse: [jsonBody()],
    async handle({ deps, principal, requestId, signal, body }, _req, res) {
      const modelId = body.model ?? DEFAULT_MODERATION_MODEL;
      const model = deps.moderation.resolve(principal, modelId);
      const items = decodeModerationInput(body.input);
      const result = await deps.moderation.moderate(principal, model, { items }, { format: 'openai-moderations', requestId, signal });
      sendJsonAnswer(res, result, encodeModerationResponse(newModerationId(), modelId, result.results));
    },
  }),
];

/** OpenAI's moderations endpoint. */
export const openAiModerationsFormat: WireFormat<ModerationsRouterDeps> = {
  name: 'openai-moderations',
  routes: moderationsRoutes,
  errorShapes: [openAiErrorShape],
};

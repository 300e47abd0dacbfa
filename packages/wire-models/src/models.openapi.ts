import type { RouteDoc } from '@gateway/http-kit';
import { ANTHROPIC_PAGE_LIMIT } from './anthropic-models.codec';
import { GEMINI_PAGE_SIZE } from './gemini-models.codec';
import { geminiVideoCapabilitiesSchema, openAiVideoCapabilitiesSchema } from './video-capabilities.codec';

const geminiModel = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', pattern: '^models/' },
    version: { type: 'string' },
    displayName: { type: 'string' },
    description: { type: 'string' },
    inputTokenLimit: { type: 'integer' },
    outputTokenLimit: { type: 'integer' },
    supportedGenerationMethods: { type: 'array', items: { type: 'string' } },
    videoCapabilities: geminiVideoCapabilitiesSchema,
  },
};

const openAiModel = {
  type: 'object',
  required: ['id', 'object'],
  properties: {
    id: { type: 'string' },
    object: { const: 'model' },
    created: { type: 'integer' },
    owned_by: { type: 'string' },
    video_capabilities: openAiVideoCapabilitiesSchema,
  },
};
const anthropicModel = {
  type: 'object',
  required: ['id', 'type'],
  properties: { type: { const: 'model' }, id: { type: 'string' }, display_name: { type: 'string' }, created_at: { type: 'string' } },
};
const openAiList = {
  type: 'object',
  required: ['object', 'data'],
  properties: { object: { const: 'list' }, data: { type: 'array', items: openAiModel } },
};
const anthropicPage = {
  type: 'object',
  required: ['data', 'has_more'],
  properties: {
    data: { type: 'array', items: anthropicModel },
    has_more: { type: 'boolean' },
    first_id: { type: ['string', 'null'] },
    last_id: { type: ['string', 'null'] },
  },
};

const google = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-goog-api-key'] } as const;
// Bearer for both SDKs; x-api-key for the Anthropic 0.x SDK; x-goog-api-key for @google/genai 3.x, which calls /v1.
const v1 = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-api-key', 'x-goog-api-key'] } as const;
const anthropicVersion = {
  name: 'anthropic-version',
  in: 'header',
  description: "When present (without a Gemini key), the answer and errors take Anthropic's shape and list text models only.",
  schema: { type: 'string' },
} as const;
const geminiPage = {
  type: 'object',
  required: ['models'],
  properties: { models: { type: 'array', items: geminiModel }, nextPageToken: { type: 'string' } },
};
const q = (name: string, description: string, schema: object = { type: 'string' }) => ({ name, in: 'query' as const, description, schema });

const geminiPaging = (only: string) => [
  q('pageSize', `${only}Page size; 0 or absent means ${GEMINI_PAGE_SIZE.default}, capped at ${GEMINI_PAGE_SIZE.max}.`, {
    type: 'integer',
    minimum: 0,
  }),
  q('pageToken', `${only}\`nextPageToken\` of the previous page.`),
];

export const modelsRoutes: RouteDoc[] = [
  {
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
  },
  {
    method: 'get',
    path: '/v1beta/models/{model}',
    summary: 'Read one model (Gemini shape)',
    format: 'model-lists',
    auth: google,
    params: [
      {
        name: 'model',
        in: 'path',
        required: true,
        description: "A model id without `models/`; outside the key's group reads as absent.",
        schema: { type: 'string' },
      },
    ],
    response: { description: 'The model.', content: { 'application/json': geminiModel } },
    errors: 'google',
  },
  {
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
  },
  {
    method: 'get',
    path: '/v1/models/{id}',
    summary: 'Read one model (OpenAI, Anthropic or Gemini shape)',
    description: 'The shape is chosen as on `GET /v1/models`.',
    format: 'model-lists',
    auth: v1,
    params: [
      { name: 'id', in: 'path', required: true, description: "A model id of the key's group.", schema: { type: 'string' } },
      anthropicVersion,
    ],
    response: { description: 'The model.', content: { 'application/json': { anyOf: [openAiModel, anthropicModel, geminiModel] } } },
    errors: ['openai', 'anthropic', 'google'],
  },
];

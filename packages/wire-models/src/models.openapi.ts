import { queryParam } from '@gateway/http-kit';
import { GEMINI_PAGE_SIZE } from './gemini-models.codec';
import { geminiVideoCapabilitiesSchema, openAiVideoCapabilitiesSchema } from './video-capabilities.codec';

export const geminiModel = {
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

export const openAiModel = {
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
export const anthropicModel = {
  type: 'object',
  required: ['id', 'type'],
  properties: { type: { const: 'model' }, id: { type: 'string' }, display_name: { type: 'string' }, created_at: { type: 'string' } },
};
export const openAiList = {
  type: 'object',
  required: ['object', 'data'],
  properties: { object: { const: 'list' }, data: { type: 'array', items: openAiModel } },
};
export const anthropicPage = {
  type: 'object',
  required: ['data', 'has_more'],
  properties: {
    data: { type: 'array', items: anthropicModel },
    has_more: { type: 'boolean' },
    first_id: { type: ['string', 'null'] },
    last_id: { type: ['string', 'null'] },
  },
};

export const anthropicVersion = {
  name: 'anthropic-version',
  in: 'header',
  description: "When present (without a Gemini key), the answer and errors take Anthropic's shape and list text models only.",
  schema: { type: 'string' },
} as const;
export const geminiPage = {
  type: 'object',
  required: ['models'],
  properties: { models: { type: 'array', items: geminiModel }, nextPageToken: { type: 'string' } },
};
export const q = queryParam;

export const geminiPaging = (only: string) => [
  q('pageSize', `${only}Page size; 0 or absent means ${GEMINI_PAGE_SIZE.default}, capped at ${GEMINI_PAGE_SIZE.max}.`, {
    type: 'integer',
    minimum: 0,
  }),
  q('pageToken', `${only}\`nextPageToken\` of the previous page.`),
];

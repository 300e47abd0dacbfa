import { IDEMPOTENCY_KEY_PARAM, type RouteDoc } from '@gateway/http-kit';
import { predictRequestSchema } from './predict.request.schema';

const operation = {
  type: 'object',
  required: ['name', 'done'],
  properties: {
    name: { type: 'string', description: 'models/<model>/operations/<id>: keep the whole value, it is the poll path.' },
    done: { type: 'boolean' },
    response: {
      type: 'object',
      properties: {
        '@type': { type: 'string' },
        generateVideoResponse: {
          type: 'object',
          properties: {
            generatedSamples: {
              type: 'array',
              items: {
                type: 'object',
                properties: { video: { type: 'object', required: ['uri'], properties: { uri: { type: 'string' } } } },
              },
            },
          },
        },
      },
    },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' }, details: { type: 'array', items: { type: 'object' } } },
    },
  },
};

const auth = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-goog-api-key'] } as const;
const model = {
  name: 'model',
  in: 'path',
  required: true,
  description: "A video model id of the key's group.",
  schema: { type: 'string' },
} as const;

export const geminiVideoRoutes: RouteDoc[] = [
  {
    method: 'post',
    path: '/v1beta/models/{model}:predictLongRunning',
    summary: 'Start a video generation',
    description: '200 means the task was accepted, not that the video is ready: poll the operation `name`.',
    format: 'gemini-video',
    auth,
    params: [model, IDEMPOTENCY_KEY_PARAM],
    body: { content: { 'application/json': predictRequestSchema } },
    response: { description: 'The operation, `done: false`.', content: { 'application/json': operation } },
    errors: 'code-message',
  },
  {
    method: 'get',
    path: '/v1beta/models/{model}/operations/{id}',
    summary: 'Poll a video operation',
    description: 'The task id alone names the operation; the model segment is not checked.',
    format: 'gemini-video',
    auth,
    params: [
      { ...model, description: 'Any model name (the one in the operation name).' },
      { name: 'id', in: 'path', required: true, description: 'The task id.', schema: { type: 'string' } },
    ],
    response: { description: 'The operation; when done, `response` or `error`.', content: { 'application/json': operation } },
    errors: 'code-message',
  },
  {
    method: 'get',
    path: '/v1beta/models/{model}/operations/{id}/events',
    summary: 'Follow a video operation live (server-sent events)',
    description: 'Any task id (one id space for the three video formats). docs/webhooks.md, "Live status".',
    format: 'gemini-video',
    auth,
    params: [
      { ...model, description: 'Any model name (the one in the operation name).' },
      { name: 'id', in: 'path', required: true, description: 'The task id.', schema: { type: 'string' } },
    ],
    response: {
      description: 'An event stream of operations.',
      content: {
        'text/event-stream': {
          type: 'string',
          description:
            'Messages `data: <operation>`, one at once and one per change of status or progress; the stream ends after the terminal state.',
        },
      },
    },
    errors: 'code-message',
  },
  {
    method: 'get',
    path: '/v1beta/files/{id}:download',
    summary: 'Download a generated video',
    description: 'The `video.uri` of a finished operation. HEAD answers the headers only.',
    format: 'gemini-video',
    auth,
    params: [
      { name: 'id', in: 'path', required: true, description: 'The task id.', schema: { type: 'string' } },
      { name: 'alt', in: 'query', description: 'Only `media`.', schema: { const: 'media' } },
    ],
    response: { description: 'The video bytes.', content: { 'video/mp4': { type: 'string', contentMediaType: 'video/mp4' } } },
    errors: 'code-message',
  },
];

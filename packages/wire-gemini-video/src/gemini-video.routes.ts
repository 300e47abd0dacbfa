import { ASPECT_RATIOS, RESOLUTIONS, VIDEO_DEFAULTS, VIDEO_FAMILY_LIMITS } from '@gateway/core';
import { IDEMPOTENCY_KEY_PARAM, type RouteDoc } from '@gateway/http-kit';
import { INLINE_IMAGE_TYPES } from './inline-image.codec';

/**
 * The predict body is checked by hand in predict.request.codec.ts (each refusal has its own code), so this schema
 * describes it; the openapi test checks that every property named here is one the decoder accepts. Ranges that
 * depend on the model (durations, resolutions, reference counts) are the limits table's and span all families here.
 */
const families = Object.values(VIDEO_FAMILY_LIMITS);
const inlineImage = {
  type: 'object',
  required: ['bytesBase64Encoded', 'mimeType'],
  additionalProperties: false,
  properties: { bytesBase64Encoded: { type: 'string', contentEncoding: 'base64' }, mimeType: { enum: [...INLINE_IMAGE_TYPES] } },
};

export const predictRequestDoc = {
  type: 'object',
  required: ['instances'],
  additionalProperties: false,
  properties: {
    instances: {
      type: 'array',
      minItems: 1,
      maxItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          prompt: { type: 'string' },
          image: inlineImage,
          lastFrame: { ...inlineImage, description: 'Needs `image`.' },
          referenceImages: {
            type: 'array',
            description: 'Not combined with image or lastFrame; the model family sets the maximum.',
            minItems: 1,
            maxItems: Math.max(...families.map((f) => f.maxReferenceImages)),
            items: {
              type: 'object',
              required: ['image'],
              additionalProperties: false,
              properties: { image: inlineImage, referenceType: { enum: ['asset', 'ASSET'] } },
            },
          },
        },
      },
    },
    parameters: {
      type: 'object',
      additionalProperties: false,
      properties: {
        durationSeconds: {
          type: 'integer',
          minimum: Math.min(...families.map((f) => f.minSeconds)),
          maximum: Math.max(...families.map((f) => f.maxSeconds)),
          default: VIDEO_DEFAULTS.durationSeconds,
        },
        aspectRatio: { enum: [...ASPECT_RATIOS], default: VIDEO_DEFAULTS.aspectRatio },
        resolution: { enum: [...RESOLUTIONS], default: VIDEO_DEFAULTS.resolution },
        generateAudio: { type: 'boolean', default: VIDEO_DEFAULTS.generateAudio },
        sampleCount: { const: 1 },
        numberOfVideos: { const: 1 },
      },
    },
  },
};

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

const auth = { kind: 'api-key', alternativeHeaders: ['x-goog-api-key'] } as const;
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
    body: { content: { 'application/json': predictRequestDoc } },
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
